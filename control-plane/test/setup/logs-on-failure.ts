/**
 * Integration setup: when a test fails (a timeout too), print the end of the
 * logs of the stacks its file started, while they still exist.
 */
import { afterEach } from 'vitest';
import { tailOfLogs } from '../helpers/failure-logs';

afterEach(({ task }) => {
  if (task.result?.state !== 'fail') return;
  const text = tailOfLogs();
  if (text) console.log(`logs of this file's stacks when "${task.name}" failed:\n${text}`);
});
