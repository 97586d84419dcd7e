import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, TerraformStack } from 'cdktf';
import { StrataAlertRule, StrataClientCertificate, StrataCluster, StrataNotificationChannel, StrataProvider } from '../src/strata';
import { DeploymentStack } from '../src/stacks/deployment';
import { ExampleAppStack } from '../src/stacks/example-app';

function synthJson(build: (app: App) => void, name: string): any {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-cdktf-'));
  try {
    const app = new App({ outdir: dir });
    build(app);
    app.synth();
    return JSON.parse(readFileSync(path.join(dir, 'stacks', name, 'cdk.tf.json'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const agentUnit = readFileSync(new URL('../../systemd/strata-agent.service', import.meta.url), 'utf8');

describe('deployment stack (AWS, multi-host)', () => {
  const doc = synthJson((app) => new DeploymentStack(app, 'deployment', { nodeCount: 4 }), 'deployment');
  const res = doc.resource;

  it('has the network, PostgreSQL, a control plane and the node pool', () => {
    expect(Object.keys(res).sort()).toEqual([
      'aws_db_instance', 'aws_db_subnet_group', 'aws_instance', 'aws_internet_gateway', 'aws_route_table',
      'aws_route_table_association', 'aws_security_group', 'aws_subnet', 'aws_vpc',
    ]);
    expect(Object.keys(res.aws_subnet)).toHaveLength(2);
    expect(Object.keys(res.aws_instance).sort()).toEqual(['control-plane', 'node-1', 'node-2', 'node-3', 'node-4']);
    expect(doc.terraform.required_providers.aws).toEqual({ source: 'hashicorp/aws', version: '~> 5.0' });
    expect(Object.keys(doc.data).sort()).toEqual(['aws_ami', 'aws_availability_zones']);
  });

  it('runs PostgreSQL on RDS, Multi-AZ, encrypted, private, reachable only from the control plane', () => {
    const db = res.aws_db_instance.postgres;
    expect(db).toMatchObject({ engine: 'postgres', engine_version: '15', multi_az: true, storage_encrypted: true, publicly_accessible: false, deletion_protection: true });
    expect(db.password).toBe('${var.db_password}');
    const dbSg = res.aws_security_group['db-sg'];
    expect(dbSg.ingress).toHaveLength(1);
    expect(dbSg.ingress[0]).toMatchObject({ from_port: 5432, to_port: 5432, security_groups: ['${aws_security_group.control-plane-sg.id}'], cidr_blocks: [] });
    expect(doc.variable.db_password.sensitive).toBe(true);
  });

  it('node hosts install and start the agent from infra/systemd/strata-agent.service', () => {
    for (const i of [1, 2, 3, 4]) {
      const node = res.aws_instance[`node-${i}`];
      expect(node.user_data).toContain(agentUnit.trimEnd());
      expect(node.user_data).toContain('systemctl enable --now strata-agent');
      expect(node.user_data).toContain('npm run build:native');
      expect(node.user_data).toContain(`STRATA_JOIN_TOKEN=\${element(var.node_join_tokens, ${i - 1})}`);
      expect(node.user_data).toContain('STRATA_URL=http://${aws_instance.control-plane.private_ip}:8080');
      expect(node.vpc_security_group_ids).toEqual(['${aws_security_group.nodes-sg.id}']);
      expect(node.metadata_options).toEqual({ http_tokens: 'required', http_endpoint: 'enabled' });
      expect(node.depends_on).toEqual(['aws_instance.control-plane']);
    }
    // Spread over both subnets (two availability zones).
    expect(new Set(Object.values(res.aws_instance).filter((n: any) => n.tags.role === 'node').map((n: any) => n.subnet_id)).size).toBe(2);
  });

  it('the control plane reads its settings from an env file and runs from its systemd unit', () => {
    const cp = res.aws_instance['control-plane'];
    expect(cp.user_data).toContain('ExecStart=/usr/bin/node --import tsx /opt/strata/control-plane/src/main.ts');
    // TLS to RDS verified against the RDS CA bundle the host downloads before the service starts
    // (node-pg's sslmode=require would verify against Node's store, which lacks Amazon's RDS CA).
    expect(cp.user_data).toContain('DATABASE_URL=postgres://strata:${var.db_password}@${aws_db_instance.postgres.address}:5432/strata?sslmode=verify-full&sslrootcert=/etc/strata/rds-ca.pem');
    const download = cp.user_data.indexOf('curl -fsSL https://truststore.pki.rds.amazonaws.com/global/global-bundle.pem -o /etc/strata/rds-ca.pem');
    expect(download).toBeGreaterThan(cp.user_data.indexOf('install -d -m 0750 -o root -g strata /etc/strata'));
    expect(download).toBeLessThan(cp.user_data.indexOf('systemctl enable --now strata-control-plane'));
    expect(cp.user_data).not.toContain('sslmode=require');
    expect(cp.user_data).toContain('STRATA_ADMIN_TOKEN=${var.admin_token}');
    expect(cp.depends_on).toEqual(['aws_db_instance.postgres']);
    const cpSg = res.aws_security_group['control-plane-sg'];
    expect(cpSg.ingress.map((r: any) => r.description).sort()).toEqual(['API and console from operators', 'agents']);
    expect(Object.keys(doc.output).sort()).toEqual(['console_url', 'control_plane_private_ip', 'database_address', 'node_private_ips']);
  });
});

describe('example app stack', () => {
  it('declares a cluster and a read-only token with the Strata provider', () => {
    const doc = synthJson((app) => new ExampleAppStack(app, 'example-app', { clusterName: 'orders', shards: 3 }), 'example-app');
    expect(doc.terraform.required_providers.strata).toEqual({ source: 'strata/strata' });
    expect(doc.terraform.backend).toEqual({ local: { path: 'terraform.tfstate' } });
    expect(doc.resource.strata_cluster.sessions).toMatchObject({ name: 'orders', shards: 3, replicas_per_shard: 1, memory_mb_per_shard: 64, eviction_policy: 'allkeys-lru' });
    expect(doc.resource.strata_api_token['app-token']).toMatchObject({ name: 'orders-reader', scopes: ['clusters:read'] });
    expect(doc.output.connection_uri).toEqual({ sensitive: true, value: '${strata_cluster.sessions.connection_uri}' });
  });
});

describe('alert bindings', () => {
  it('write a notification channel and an alert rule naming it, in the provider\'s attribute names', () => {
    const doc = synthJson((app) => {
      const stack = new TerraformStack(app, 'alerts');
      new StrataProvider(stack, 'strata');
      const hook = new StrataNotificationChannel(stack, 'pager', { type: 'webhook', url: 'https://hooks.example.com/strata', secret: 's3cret-value', format: 'slack' });
      new StrataAlertRule(stack, 'memory', { clusterId: 'c0ffee00-0000-4000-8000-000000000000', metric: 'memory_used_percent', threshold: 80, forSeconds: 60, channelIds: [hook.channelId] });
    }, 'alerts');
    expect(doc.resource.strata_notification_channel.pager).toMatchObject({ type: 'webhook', url: 'https://hooks.example.com/strata', secret: 's3cret-value', format: 'slack' });
    expect(doc.resource.strata_alert_rule.memory).toMatchObject({
      cluster_id: 'c0ffee00-0000-4000-8000-000000000000', metric: 'memory_used_percent', threshold: 80, for_seconds: 60,
      channel_ids: ['${strata_notification_channel.pager.id}'],
    });
  });
});

describe('TLS bindings', () => {
  it('write a client certificate of a TLS cluster and the CA rotation trigger in the provider\'s attribute names', () => {
    const doc = synthJson((app) => {
      const stack = new TerraformStack(app, 'tls');
      new StrataProvider(stack, 'strata');
      const cluster = new StrataCluster(stack, 'billing', {
        name: 'billing', shards: 3, replicasPerShard: 1, tls: 'required', tlsClientAuth: 'required', caRotation: { trigger: '2026-01', retireAfterSeconds: 86_400 },
      });
      new StrataClientCertificate(stack, 'api', { clusterId: cluster.clusterId, name: 'billing-api', validityDays: 90 });
    }, 'tls');
    expect(doc.resource.strata_cluster.billing).toMatchObject({ tls: 'required', tls_client_auth: 'required', ca_rotation: { trigger: '2026-01', retire_after_seconds: 86_400 } });
    expect(doc.resource.strata_client_certificate.api).toMatchObject({ cluster_id: '${strata_cluster.billing.id}', name: 'billing-api', validity_days: 90 });
    expect(Object.keys(doc.resource.strata_client_certificate.api).filter((k) => k !== '//').sort()).toEqual(['cluster_id', 'name', 'validity_days']);
  });
});
