/**
 * @strata/engine: pure engine planners and config rendering (no I/O).
 * Code that talks to a running Redis is in '@strata/engine/redis-admin'.
 */
export * from './domain';
export { shardLabel, shardName, shardNames, shardNumber } from './shard-label';
export { formatMemoryMb } from './memory-label';
export type { ClusterAction, ClusterActionKind, ForgetScope } from './redis/cluster-action';
export { planSlots, SLOT_COUNT } from './redis/slots.planner';
export { keySlot } from './redis/key-slot';
export {
  planPlacement,
  placeReplacement,
  planSecondPorts,
  type ReplacementRequest,
  type ReplacementResult,
  DEFAULT_BASE_PORT,
  type PlacementNode,
  type PlacementRequest,
  type PlannedInstance,
  type PlacementResult,
  type PlacementFailureCode,
} from './placement.planner';
export { claimsSlots, withoutOwnClaims } from './redis/nodes-conf';
export { renderRedisConfig, CUSTOMER_ACL_RULES, INTERNAL_ACL_RULES, type InstanceTlsLayout, type RedisConfigInput } from './redis/config.renderer';
export { quoteConfigArg } from './redis/config.quoting';
export { clientAuthSettings, tlsSettings, TLS_FILES, type TlsFiles } from './redis/tls-settings';
export {
  busPort, layoutAfter, layoutPorts, planTlsChange, replicationPortAfter, secondProtocolMovesHome, servesBoth, servesTls, stageConnection, stageName, switchOrder, tlsSwitchActs, tlsTargetOf, TLS_LAYOUTS,
  type TlsDirection, type TlsLayout, type TlsStageRef, type TlsSwitchAct, type TlsSwitchMember, type TlsSwitchStage, type TlsTarget,
} from './redis/tls-switch.plan';
export {
  planCertificateRenewal, earliestCertificateExpiry, instanceCertValidityMs, INSTANCE_CERT_VALIDITY_DAYS, DEFAULT_RENEW_BEFORE_DAYS,
  type CertificateInstance, type RenewCertificateAction,
} from './redis/certificate-renewal';
export { clientTrustBundle, clientTrustDigest, planTrustSync, type TrustInstance } from './redis/client-trust';
export * from './database-user-names';
export {
  PRESET_COMMAND_RULES,
  databaseUserRules,
  databaseUserConfigLines,
  databaseUsersDigest,
  planUserSync,
  sha256Hex,
  type DatabaseUserAcl,
  NO_USERS_DIGEST,
  type UserSyncInstance,
} from './redis/database-users';
export {
  isHealthyMember,
  isInSyncReplica,
  followsNode,
  primaryNodeId,
  type MemberObservation,
} from './redis/member-health';
export {
  MAX_LOAD_ROUNDS,
  planCreateStep,
  planDeleteStep,
  planSwitchoverStep,
  healthyIds,
  isGone,
  type OpInstance,
  type TaskView,
  type StepVerdict,
  type StepPlan,
  type OperationAction,
  type Settings,
  type CreateStep,
  type RestoreFileView,
  type DeleteStep,
} from './redis/operation.planner';
export {
  planConfigure,
  planStartInstances,
  planJoinInstances,
  planRemoveInstances,
  planFinish,
  type UpdateInput,
  type UpdateAction,
  type UpdateTaskRef,
  type UpdateStepPlan,
} from './redis/update.planner';
export { planRestartStep, restartOrder, FRESH_AFTER_MS, type RestartInput, type RestartTaskRef } from './redis/restart.planner';
export { planMigrateStep, shardPrimary, MIGRATE_ATTEMPTS, type MigrateInput, type MigrateRun, type MigrateAction } from './redis/migrate.planner';
export { nodesToForget, membership, type KnownNode, type Membership } from './redis/membership.rule';
export {
  planHealing,
  describeHealAction,
  isPromotable,
  type HealAction,
  type HealInput,
  type HealInstance,
  type HealObservation,
  type HealPlan,
  type FailoverMode,
  type SwitchoverReason,
} from './redis/heal.planner';
export {
  planTopologyChange,
  planSlotTargets,
  evenCounts,
  expandRanges,
  compressSlots,
  FILL_LIMIT,
  type TopologySpec,
  type TopologyInstance,
  type TopologyPlanInput,
  type TopologyPlanResult,
  type TopologyChangePlan,
  type TopologyStepName,
  type RollbackStepName,
  type UpdateDesired,
  updateStepNames,
  rollbackStepNames,
  movedSlots,
  isVertical,
  specProblem,
  type NewInstance,
  type SlotMove,
  type ShardData,
} from './redis/topology.planner';
export { MIGRATION_PACES, DEFAULT_MIGRATION_PRIORITY, BatchPacer, migrationCosts, type MigrationPace, type MigrationCost } from './redis/migration-pace';
export { mergeSlowLogs, type Mergeable } from './redis/diagnostics/merge-slowlog';
export { TopN, printable, parseSlowLogEntry, restAfter, type SlowRecord } from './redis/diagnostics/key-rank';
