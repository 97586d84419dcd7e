/** Backups: where they are stored, and what an RDB file says about itself. */
export * from './backup-storage';
export * from './rdb-header';
export * from './rdb-databases';
export * from './rdb-version';
export * from './rdb-check';
export * from './backup-source.planner';
export * from './s3-storage';
export * from './rdb-sync';
export * from './restore-layout';
export * from './redis-probe';
