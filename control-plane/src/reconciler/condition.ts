import type { Condition } from '@strata/api';

export const condition = (type: string, status: Condition['status'], reason: string, message: string): Condition => ({
  type, status, reason, message, lastTransitionAt: new Date().toISOString(),
});
