/** Typed constructs for terraform-provider-strata (infra/terraform-provider-strata). */
import { Token, type IResolvable, type TerraformMetaArguments } from 'cdktf';
import type { Construct } from 'constructs';
import { BoundDataSource, BoundProvider, BoundResource } from './bindings';

export const STRATA_PROVIDER_SOURCE = 'strata/strata';

export interface StrataProviderConfig {
  /** Default: STRATA_ENDPOINT. */
  endpoint?: string;
  /** Default: STRATA_TOKEN. */
  token?: string;
  alias?: string;
}

export class StrataProvider extends BoundProvider<StrataProviderConfig> {
  constructor(scope: Construct, id: string, config: StrataProviderConfig = {}, version?: string) {
    super(scope, id, 'strata', STRATA_PROVIDER_SOURCE, version, config);
  }
}

export type Durability = 'none' | 'aof-everysec' | 'aof-always';
export type EvictionPolicy = 'noeviction' | 'allkeys-lru' | 'allkeys-lfu' | 'allkeys-random' | 'volatile-lru' | 'volatile-lfu' | 'volatile-random' | 'volatile-ttl';

export interface StrataClusterConfig {
  name: string;
  shards: number;
  replicasPerShard: number;
  memoryMbPerShard?: number;
  durability?: Durability;
  evictionPolicy?: EvictionPolicy;
  engineVersion?: '7';
  waitForReady?: boolean;
  timeouts?: { create?: string; update?: string; delete?: string };
}

/** strata_cluster: shards, replicas, memory, durability and eviction change in place. */
export class StrataCluster extends BoundResource<StrataClusterConfig> {
  static readonly tfResourceType = 'strata_cluster';
  constructor(scope: Construct, id: string, config: StrataClusterConfig & TerraformMetaArguments) {
    super(scope, id, StrataCluster.tfResourceType, 'strata', config);
  }
  get clusterId(): string { return this.getStringAttribute('id'); }
  get status(): string { return this.getStringAttribute('status'); }
  get connectionUri(): string { return this.getStringAttribute('connection_uri'); }
  get username(): string { return this.getStringAttribute('username'); }
  get password(): string { return this.getStringAttribute('password'); }
  get seeds(): string[] { return this.getListAttribute('seeds'); }
}

export type Scope = 'clusters:read' | 'clusters:write' | 'benchmarks:run' | 'admin';

export interface StrataApiTokenConfig {
  name: string;
  scopes: Scope[];
  /** RFC 3339. */
  expiresAt?: string;
}

/** strata_api_token: the secret is `token` (sensitive). */
export class StrataApiToken extends BoundResource<StrataApiTokenConfig> {
  static readonly tfResourceType = 'strata_api_token';
  constructor(scope: Construct, id: string, config: StrataApiTokenConfig & TerraformMetaArguments) {
    super(scope, id, StrataApiToken.tfResourceType, 'strata', config);
  }
  get tokenId(): string { return this.getStringAttribute('id'); }
  get token(): string { return this.getStringAttribute('token'); }
}

/** data "strata_cluster": by id or name. */
export class DataStrataCluster extends BoundDataSource<{ id?: string; name?: string }> {
  constructor(scope: Construct, id: string, config: { id?: string; name?: string } & TerraformMetaArguments) {
    super(scope, id, 'strata_cluster', 'strata', config);
  }
  get status(): string { return this.getStringAttribute('status'); }
  get seeds(): string[] { return this.getListAttribute('seeds'); }
  get shards(): number { return this.getNumberAttribute('shards'); }
}

/** data "strata_nodes". */
export class DataStrataNodes extends BoundDataSource<object> {
  constructor(scope: Construct, id: string, config: TerraformMetaArguments = {}) {
    super(scope, id, 'strata_nodes', 'strata', config);
  }
  /** The list of nodes (objects with id, name, address, status, draining, memory_mb, used_memory_mb, instances). */
  get nodes(): IResolvable { return Token.asAny(this.interpolationForAttribute('nodes')) as IResolvable; }
}
