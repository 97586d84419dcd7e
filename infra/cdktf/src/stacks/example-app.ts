/** Example app: a Strata cluster, a read-only database user and a read-only API token for an application, as typed constructs. */
import { LocalBackend, TerraformOutput, TerraformStack } from 'cdktf';
import type { Construct } from 'constructs';
import { DataStrataNodes, StrataApiToken, StrataCluster, StrataDatabaseUser, StrataProvider } from '../strata';

export interface ExampleAppProps {
  clusterName?: string;
  shards?: number;
  replicasPerShard?: number;
  memoryMbPerShard?: number;
}

export class ExampleAppStack extends TerraformStack {
  readonly cluster: StrataCluster;
  readonly token: StrataApiToken;
  readonly reader: StrataDatabaseUser;

  constructor(scope: Construct, id: string, props: ExampleAppProps = {}) {
    super(scope, id);
    // State next to the synthesized configuration (cdktf's default is an absolute path under the project).
    new LocalBackend(this, { path: 'terraform.tfstate' });
    // Endpoint and token from STRATA_ENDPOINT / STRATA_TOKEN.
    new StrataProvider(this, 'strata');
    this.cluster = new StrataCluster(this, 'sessions', {
      name: props.clusterName ?? 'cdktf-sessions',
      shards: props.shards ?? 2,
      replicasPerShard: props.replicasPerShard ?? 1,
      memoryMbPerShard: props.memoryMbPerShard ?? 64,
      evictionPolicy: 'allkeys-lru',
      timeouts: { create: '10m' },
    });
    // The application reads sessions with its own database user, limited to session:* keys.
    this.reader = new StrataDatabaseUser(this, 'session-reader', { clusterId: this.cluster.clusterId, name: 'session-reader', preset: 'read-only', keyPatterns: ['session:*'] });
    this.token = new StrataApiToken(this, 'app-token', { name: `${props.clusterName ?? 'cdktf-sessions'}-reader`, scopes: ['clusters:read'] });
    const nodes = new DataStrataNodes(this, 'nodes', { dependsOn: [this.cluster] });

    new TerraformOutput(this, 'cluster_id', { value: this.cluster.clusterId });
    new TerraformOutput(this, 'status', { value: this.cluster.status });
    new TerraformOutput(this, 'seeds', { value: this.cluster.seeds });
    new TerraformOutput(this, 'connection_uri', { value: this.cluster.connectionUri, sensitive: true });
    new TerraformOutput(this, 'reader_password', { value: this.reader.password, sensitive: true });
    new TerraformOutput(this, 'app_token', { value: this.token.token, sensitive: true });
    new TerraformOutput(this, 'node_list', { value: nodes.nodes });
  }
}
