import type { Durability } from '@strata/api';
import { DURABILITY_OPTIONS } from '../ClusterCreate/options';

/** The same words as the wizard's choices ("None (in memory)", "AOF, every second"). */
export const DURABILITY_LABELS: Record<Durability, string> = {
  none: DURABILITY_OPTIONS.none.title,
  'aof-everysec': DURABILITY_OPTIONS['aof-everysec'].title,
  'aof-always': DURABILITY_OPTIONS['aof-always'].title,
};
