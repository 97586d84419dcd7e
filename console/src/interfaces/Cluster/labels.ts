import type { Durability } from '@strata/api';

export const DURABILITY_LABELS: Record<Durability, string> = {
  none: 'No persistence',
  'aof-everysec': 'AOF every second',
  'aof-always': 'AOF every write',
};
