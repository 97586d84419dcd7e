/**
 * The engine owns its domain types (`@strata/engine`); the HTTP contract
 * (`@strata/api`) describes the same shapes on the wire. This file holds no
 * code: it makes the type check fail when the two drift apart, so the
 * control plane and agents can pass a parsed request to the engine as is.
 */
import type * as Api from '@strata/api';
import type * as Engine from '@strata/engine';
import { LATENCY_BUCKET_COUNT as API_BUCKETS } from '@strata/api';
import { LATENCY_BUCKET_COUNT as ENGINE_BUCKETS } from '@strata/engine';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

export type DomainConformance = [
  Assert<Same<Api.Durability, Engine.Durability>>,
  Assert<Same<Api.EvictionPolicy, Engine.EvictionPolicy>>,
  Assert<Same<Api.Fencing, Engine.Fencing>>,
  Assert<Same<Api.InstanceRole, Engine.InstanceRole>>,
  Assert<Same<Api.MigrationPriority, Engine.MigrationPriority>>,
  Assert<Same<Api.SlotRange, Engine.SlotRange>>,
  Assert<Same<Api.TlsLayout, Engine.TlsLayout>>,
  Assert<Same<Api.EngineCredentials, Engine.EngineCredentials>>,
  Assert<Same<Api.FormClusterShard, Engine.FormClusterShard>>,
  Assert<Same<Api.ObservedInstanceState, Engine.ObservedInstanceState>>,
  Assert<Same<Api.OpenSlot, Engine.OpenSlot>>,
  Assert<Same<Api.ObservedClusterView, Engine.ObservedClusterView>>,
  Assert<Same<Api.MigrationProgress, Engine.MigrationProgress>>,
  Assert<Same<Api.InstanceMetricSample, Engine.InstanceMetricSample>>,
  Assert<Same<typeof API_BUCKETS, typeof ENGINE_BUCKETS>>,
];
