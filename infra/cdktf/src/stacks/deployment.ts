/**
 * A multi-host Strata installation on AWS: one VPC, PostgreSQL on RDS (Multi-AZ), a control-plane
 * host, and a node pool whose hosts run the agent from infra/systemd/strata-agent.service.
 *
 * Nodes register with one-time join tokens: apply with `-target` for the control plane first, create
 * one join token per node (`POST /v1/nodes/join-tokens`), then apply again with `node_join_tokens`.
 */
import { readFileSync } from 'node:fs';
import { Fn, LocalBackend, TerraformOutput, TerraformStack, TerraformVariable } from 'cdktf';
import type { Construct } from 'constructs';
import {
  AwsProvider, DataAwsAmi, DataAwsAvailabilityZones, DbInstance, DbSubnetGroup, Instance, InternetGateway, RouteTable,
  RouteTableAssociation, SecurityGroup, Subnet, Vpc,
} from '../aws';

const unit = (name: string) => readFileSync(new URL(`../../../systemd/${name}`, import.meta.url), 'utf8');

export interface DeploymentProps {
  region?: string;
  /** Hosts in the node pool (each runs the agent). */
  nodeCount?: number;
  nodeInstanceType?: string;
  controlPlaneInstanceType?: string;
  dbInstanceClass?: string;
  /** Git ref of Strata installed on the hosts. */
  strataRef?: string;
}

/** cloud-init shell: Node 20, redis-server, Strata at /opt/strata, the `strata` user. */
const baseInstall = (ref: string) => `#!/bin/bash
set -euo pipefail
apt-get update -qq
apt-get install -y -qq ca-certificates curl git redis-server
systemctl disable --now redis-server || true
curl -fsSL https://deb.nodesource.com/setup_20.x | bash -
apt-get install -y -qq nodejs
id strata >/dev/null 2>&1 || useradd --system --home /var/lib/strata --shell /usr/sbin/nologin strata
git clone --depth 1 --branch ${ref} https://github.com/strata/strata.git /opt/strata
cd /opt/strata && npm ci --no-audit --no-fund
install -d -m 0750 -o root -g strata /etc/strata
`;

/** Amazon RDS's CA bundle (every region), and where the control-plane host keeps it. */
export const RDS_CA_BUNDLE_URL = 'https://truststore.pki.rds.amazonaws.com/global/global-bundle.pem';
export const RDS_CA_FILE = '/etc/strata/rds-ca.pem';

const writeFile = (path: string, content: string, mode: string) =>
  `cat > ${path} <<'STRATA_EOF'\n${content.trimEnd()}\nSTRATA_EOF\nchmod ${mode} ${path}\n`;

export class DeploymentStack extends TerraformStack {
  readonly nodes: Instance[] = [];
  readonly controlPlane: Instance;
  readonly database: DbInstance;

  constructor(scope: Construct, id: string, props: DeploymentProps = {}) {
    super(scope, id);
    const nodeCount = props.nodeCount ?? 3;
    const ref = props.strataRef ?? 'main';
    const tags = { app: 'strata' };
    // Replace with an S3 backend for a team; local keeps the synth test self-contained.
    new LocalBackend(this, { path: 'terraform.tfstate' });

    const region = new TerraformVariable(this, 'region', { type: 'string', default: props.region ?? 'eu-central-1' });
    const adminCidr = new TerraformVariable(this, 'admin_cidr', { type: 'string', description: 'CIDR allowed to reach the API and console (port 8080)' });
    const dbPassword = new TerraformVariable(this, 'db_password', { type: 'string', sensitive: true });
    const adminToken = new TerraformVariable(this, 'admin_token', { type: 'string', sensitive: true, description: 'STRATA_ADMIN_TOKEN for the control plane (>= 16 characters)' });
    const masterKey = new TerraformVariable(this, 'master_key', { type: 'string', sensitive: true, description: '64 hex characters: STRATA_MASTER_KEY (encrypts cluster secrets)' });
    const joinTokens = new TerraformVariable(this, 'node_join_tokens', {
      type: 'list(string)', sensitive: true, default: [],
      description: `one join token per node (${nodeCount}); empty on the first apply (-target the control plane)`,
    });

    new AwsProvider(this, 'aws', { region: region.stringValue, defaultTags: [{ tags }] });
    const azs = new DataAwsAvailabilityZones(this, 'azs', { state: 'available' });
    const ami = new DataAwsAmi(this, 'debian', {
      mostRecent: true, owners: ['136693071363'],
      filter: [{ name: 'name', values: ['debian-12-amd64-*'] }, { name: 'architecture', values: ['x86_64'] }],
    });

    const vpc = new Vpc(this, 'vpc', { cidrBlock: '10.40.0.0/16', enableDnsHostnames: true, enableDnsSupport: true, tags: { Name: 'strata' } });
    const subnets = [0, 1].map((i) => new Subnet(this, `subnet-${i}`, {
      vpcId: vpc.vpcId, cidrBlock: `10.40.${i}.0/24`, availabilityZone: Fn.element(azs.names, i), mapPublicIpOnLaunch: true, tags: { Name: `strata-${i}` },
    }));
    const igw = new InternetGateway(this, 'igw', { vpcId: vpc.vpcId });
    const routes = new RouteTable(this, 'routes', { vpcId: vpc.vpcId, route: [{ cidrBlock: '0.0.0.0/0', gatewayId: igw.gatewayId }] });
    subnets.forEach((s, i) => new RouteTableAssociation(this, `routes-${i}`, { subnetId: s.subnetId, routeTableId: routes.routeTableId }));

    const egressAll = [{ description: 'all outbound', fromPort: 0, toPort: 0, protocol: '-1', cidrBlocks: ['0.0.0.0/0'] }];
    const nodeSg = new SecurityGroup(this, 'nodes-sg', {
      name: 'strata-nodes', description: 'Strata node pool: Redis Cluster ports and bus within the VPC', vpcId: vpc.vpcId,
      ingress: [{ description: 'redis and cluster bus from the VPC', fromPort: 1024, toPort: 65535, protocol: 'tcp', cidrBlocks: ['10.40.0.0/16'] }],
      egress: egressAll,
    });
    const cpSg = new SecurityGroup(this, 'control-plane-sg', {
      name: 'strata-control-plane', description: 'Strata API and console', vpcId: vpc.vpcId,
      ingress: [
        { description: 'API and console from operators', fromPort: 8080, toPort: 8080, protocol: 'tcp', cidrBlocks: [adminCidr.stringValue] },
        { description: 'agents', fromPort: 8080, toPort: 8080, protocol: 'tcp', securityGroups: [nodeSg.securityGroupId] },
      ],
      egress: egressAll,
    });
    const dbSg = new SecurityGroup(this, 'db-sg', {
      name: 'strata-db', description: 'PostgreSQL for the control plane', vpcId: vpc.vpcId,
      ingress: [{ description: 'control plane', fromPort: 5432, toPort: 5432, protocol: 'tcp', securityGroups: [cpSg.securityGroupId] }],
      egress: egressAll,
    });

    const dbSubnets = new DbSubnetGroup(this, 'db-subnets', { name: 'strata-db', subnetIds: subnets.map((s) => s.subnetId) });
    this.database = new DbInstance(this, 'postgres', {
      identifier: 'strata', engine: 'postgres', engineVersion: '15', instanceClass: props.dbInstanceClass ?? 'db.t4g.medium', allocatedStorage: 50,
      dbName: 'strata', username: 'strata', password: dbPassword.stringValue, dbSubnetGroupName: dbSubnets.groupName,
      vpcSecurityGroupIds: [dbSg.securityGroupId], multiAz: true, storageEncrypted: true, backupRetentionPeriod: 7,
      skipFinalSnapshot: false, deletionProtection: true, publiclyAccessible: false,
    });

    const hardening = { metadataOptions: { httpTokens: 'required' as const, httpEndpoint: 'enabled' as const } };
    // RDS certificates chain to Amazon's RDS CA, which is not in Node's store: with node-pg,
    // sslmode=require means verify-full against that store and fails. The control plane verifies
    // against the RDS bundle the host downloads (RDS_CA_FILE).
    const cpEnv = [
      `DATABASE_URL=postgres://strata:${dbPassword.stringValue}@${this.database.address}:5432/strata?sslmode=verify-full&sslrootcert=${RDS_CA_FILE}`,
      'STRATA_HOST=0.0.0.0', 'STRATA_PORT=8080', `STRATA_ADMIN_TOKEN=${adminToken.stringValue}`, `STRATA_MASTER_KEY=${masterKey.stringValue}`,
    ].join('\n');
    this.controlPlane = new Instance(this, 'control-plane', {
      ami: ami.imageId, instanceType: props.controlPlaneInstanceType ?? 't3.medium', subnetId: subnets[0]!.subnetId,
      vpcSecurityGroupIds: [cpSg.securityGroupId], privateIp: '10.40.0.10', ...hardening,
      rootBlockDevice: { volumeSize: 20, volumeType: 'gp3', encrypted: true },
      userDataReplaceOnChange: true,
      userData: baseInstall(ref)
        + `curl -fsSL ${RDS_CA_BUNDLE_URL} -o ${RDS_CA_FILE}\nchmod 0644 ${RDS_CA_FILE}\n`
        + writeFile('/etc/strata/control-plane.env', cpEnv, '0640')
        + writeFile('/etc/systemd/system/strata-control-plane.service', unit('strata-control-plane.service'), '0644')
        + 'npm run build --workspace @strata/console\nsystemctl daemon-reload\nsystemctl enable --now strata-control-plane\n',
      tags: { Name: 'strata-control-plane', role: 'control-plane' },
      dependsOn: [this.database],
    });

    for (let i = 0; i < nodeCount; i++) {
      const env = [
        `STRATA_URL=http://${this.controlPlane.privateIp}:8080`,
        `STRATA_JOIN_TOKEN=${Fn.element(joinTokens.listValue, i)}`,
        `STRATA_AGENT_NAME=node-${i + 1}`,
      ].join('\n');
      this.nodes.push(new Instance(this, `node-${i + 1}`, {
        ami: ami.imageId, instanceType: props.nodeInstanceType ?? 'r6i.large', subnetId: subnets[i % 2]!.subnetId,
        vpcSecurityGroupIds: [nodeSg.securityGroupId], ...hardening,
        rootBlockDevice: { volumeSize: 50, volumeType: 'gp3', encrypted: true },
        userData: baseInstall(ref)
          + writeFile('/etc/strata/agent.env', env, '0640')
          + 'echo "STRATA_AGENT_ADDRESS=$(hostname -I | awk \'{print $1}\')" >> /etc/strata/agent.env\n'
          + writeFile('/etc/systemd/system/strata-agent.service', unit('strata-agent.service'), '0644')
          // the benchmark load generator's native worker, built at install time (never by the agent)
          + 'apt-get install -y -qq gcc libc6-dev\ncd /opt/strata && npm run build:native\n'
          + 'systemctl daemon-reload\nsystemctl enable --now strata-agent\n',
        tags: { Name: `strata-node-${i + 1}`, role: 'node' },
        dependsOn: [this.controlPlane],
      }));
    }

    new TerraformOutput(this, 'control_plane_private_ip', { value: this.controlPlane.privateIp });
    new TerraformOutput(this, 'console_url', { value: `http://${this.controlPlane.publicIp}:8080/` });
    new TerraformOutput(this, 'node_private_ips', { value: this.nodes.map((n) => n.privateIp) });
    new TerraformOutput(this, 'database_address', { value: this.database.address });
  }
}
