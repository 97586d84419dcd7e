/**
 * The few hashicorp/aws resources the deployment stack uses, hand-written
 * (the generated @cdktf/provider-aws is ~390 MB installed). Attribute names
 * follow the AWS provider's schema (camelCase here, snake_case in the output).
 */
import type { TerraformMetaArguments } from 'cdktf';
import type { Construct } from 'constructs';
import { BoundDataSource, BoundProvider, BoundResource } from './bindings';

type Tags = Record<string, string>;
type Meta = TerraformMetaArguments;

export class AwsProvider extends BoundProvider<{ region: string; defaultTags?: { tags: Tags }[] }> {
  constructor(scope: Construct, id: string, config: { region: string; defaultTags?: { tags: Tags }[] }) {
    super(scope, id, 'aws', 'hashicorp/aws', '~> 5.0', config);
  }
}

export type VpcConfig = { cidrBlock: string; enableDnsHostnames?: boolean; enableDnsSupport?: boolean; tags?: Tags };

export class Vpc extends BoundResource<VpcConfig> {
  constructor(scope: Construct, id: string, config: VpcConfig & Meta) { super(scope, id, 'aws_vpc', 'aws', config); }
  get vpcId(): string { return this.getStringAttribute('id'); }
}

export type SubnetConfig = { vpcId: string; cidrBlock: string; availabilityZone: string; mapPublicIpOnLaunch?: boolean; tags?: Tags };

export class Subnet extends BoundResource<SubnetConfig> {
  constructor(scope: Construct, id: string, config: SubnetConfig & Meta) { super(scope, id, 'aws_subnet', 'aws', config); }
  get subnetId(): string { return this.getStringAttribute('id'); }
}

export type InternetGatewayConfig = { vpcId: string; tags?: Tags };

export class InternetGateway extends BoundResource<InternetGatewayConfig> {
  constructor(scope: Construct, id: string, config: InternetGatewayConfig & Meta) { super(scope, id, 'aws_internet_gateway', 'aws', config); }
  get gatewayId(): string { return this.getStringAttribute('id'); }
}

export type RouteTableConfig = { vpcId: string; route?: { cidrBlock: string; gatewayId: string }[]; tags?: Tags };

export class RouteTable extends BoundResource<RouteTableConfig> {
  constructor(scope: Construct, id: string, config: RouteTableConfig & Meta) { super(scope, id, 'aws_route_table', 'aws', config); }
  get routeTableId(): string { return this.getStringAttribute('id'); }
}

export type RouteTableAssociationConfig = { subnetId: string; routeTableId: string };

export class RouteTableAssociation extends BoundResource<RouteTableAssociationConfig> {
  constructor(scope: Construct, id: string, config: RouteTableAssociationConfig & Meta) { super(scope, id, 'aws_route_table_association', 'aws', config); }
}

export interface SgRule {
  description: string;
  fromPort: number;
  toPort: number;
  protocol: string;
  cidrBlocks?: string[];
  securityGroups?: string[];
  self?: boolean;
  // The AWS provider requires these keys present in inline rules.
  ipv6CidrBlocks?: string[];
  prefixListIds?: string[];
}

export type SecurityGroupConfig = { name: string; description: string; vpcId: string; ingress?: SgRule[]; egress?: SgRule[]; tags?: Tags };

export class SecurityGroup extends BoundResource<SecurityGroupConfig> {
  constructor(scope: Construct, id: string, config: SecurityGroupConfig & Meta) {
    const full = (rules?: SgRule[]) => rules?.map((r) => ({ cidrBlocks: [], securityGroups: [], self: false, ipv6CidrBlocks: [], prefixListIds: [], ...r }));
    super(scope, id, 'aws_security_group', 'aws', { ...config, ingress: full(config.ingress), egress: full(config.egress) });
  }
  get securityGroupId(): string { return this.getStringAttribute('id'); }
}

export type DbSubnetGroupConfig = { name: string; subnetIds: string[]; tags?: Tags };

export class DbSubnetGroup extends BoundResource<DbSubnetGroupConfig> {
  constructor(scope: Construct, id: string, config: DbSubnetGroupConfig & Meta) { super(scope, id, 'aws_db_subnet_group', 'aws', config); }
  get groupName(): string { return this.getStringAttribute('name'); }
}

export type DbInstanceConfig = {
  identifier: string; engine: 'postgres'; engineVersion: string; instanceClass: string; allocatedStorage: number;
  dbName: string; username: string; password: string; dbSubnetGroupName: string; vpcSecurityGroupIds: string[];
  multiAz?: boolean; storageEncrypted?: boolean; backupRetentionPeriod?: number; skipFinalSnapshot?: boolean;
  deletionProtection?: boolean; publiclyAccessible?: boolean; tags?: Tags;
};

export class DbInstance extends BoundResource<DbInstanceConfig> {
  constructor(scope: Construct, id: string, config: DbInstanceConfig & Meta) { super(scope, id, 'aws_db_instance', 'aws', config); }
  get address(): string { return this.getStringAttribute('address'); }
  get port(): number { return this.getNumberAttribute('port'); }
}

export type InstanceConfig = {
  ami: string; instanceType: string; subnetId: string; vpcSecurityGroupIds: string[]; privateIp?: string;
  keyName?: string; userData?: string; userDataReplaceOnChange?: boolean;
  rootBlockDevice?: { volumeSize: number; volumeType: string; encrypted: boolean };
  metadataOptions?: { httpTokens: 'required' | 'optional'; httpEndpoint: 'enabled' | 'disabled' };
  tags?: Tags;
};

export class Instance extends BoundResource<InstanceConfig> {
  constructor(scope: Construct, id: string, config: InstanceConfig & Meta) { super(scope, id, 'aws_instance', 'aws', config); }
  get privateIp(): string { return this.getStringAttribute('private_ip'); }
  get publicIp(): string { return this.getStringAttribute('public_ip'); }
}

export type DataAwsAmiConfig = { mostRecent: boolean; owners: string[]; filter: { name: string; values: string[] }[] };

export class DataAwsAmi extends BoundDataSource<DataAwsAmiConfig> {
  constructor(scope: Construct, id: string, config: DataAwsAmiConfig & Meta) { super(scope, id, 'aws_ami', 'aws', config); }
  get imageId(): string { return this.getStringAttribute('id'); }
}

export type DataAwsAvailabilityZonesConfig = { state: string };

export class DataAwsAvailabilityZones extends BoundDataSource<DataAwsAvailabilityZonesConfig> {
  constructor(scope: Construct, id: string, config: DataAwsAvailabilityZonesConfig & Meta) { super(scope, id, 'aws_availability_zones', 'aws', config); }
  get names(): string[] { return this.getListAttribute('names'); }
}
