/**
 * @strata/engine/redis-admin: talks to running redis-server instances.
 * Used by node agents only; the control plane uses the pure planners.
 */
export { observeInstance, type ObserveInstanceOptions } from './observe-instance';
export { formCluster, type FormClusterOptions } from './form-cluster';
export { applyInstanceSettings, SPARE_USERS, type InstanceSettings } from './apply-settings';
export { observeWith } from './observe-instance';
export { promoteReplica, type PromoteMode, type PromoteResult } from './failover';
export { repairOpenSlots, type RepairSlotsOptions } from './repair-slots';
export { readSnapshot, CommandClassifier, SAMPLER_COMMANDS } from './metrics-reader';
export { connectAdmin, internalLogin, tlsLogin, type AdminLogin, type AdminTarget, type TlsLogin } from './admin-connection';
export { joinAsReplica, forgetNodes } from './membership';
export { migrateSlots, type MigrateSlotsOptions, type MigrateSlotsResult } from './migrate-slots';
export { meetAsPrimary, reconfigureInstance, reloadTlsFiles } from './topology-admin';
export { syncDatabaseUsers } from './database-users';
export { readSlowLog, resetSlowLog, scanKeys, type SlowLogReading, type KeyScanOptions, type KeyScanOutcome } from './diagnostics';
export { openInstanceSocket, type InstanceSocket } from '../instance-socket';
export { moveKeys, type MoveKeysOptions, type MoveKeysResult } from './move-keys';
export { runTlsSwitchMember, runTlsSwitchStage, type TlsSwitchMemberOptions, type TlsSwitchOptions } from './tls-switch';
