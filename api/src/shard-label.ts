/** Shard names for people ("Shard 2", "shards 1 and 3"): the engine's one definition, for the console and every client. */
export { shardLabel, shardName, shardNames, shardNumber } from '@strata/engine/shard-label';
