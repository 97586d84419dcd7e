/**
 * Appending clients of a chaos run in a process of their own, started by the
 * checker inside a host's network namespace (`ip netns exec <ns> node
 * --import tsx client-worker.ts`, remote-clients.ts), so they reach what that
 * host reaches. They run the same `appendLoop` as the checker's own clients;
 * the wire (stdin: config, `stop`; stdout: ready, ops, done) is
 * client-wire.ts.
 *
 * Bounded: the clients stop on `stop`, when stdin ends (the checker is gone,
 * however it ended) or at the config's deadline; the process exits once they
 * have, and by force 10 s after the deadline whatever it is doing.
 */
import { createInterface } from 'node:readline';
import type { AppendOp } from './history';
import { appendLoop, SlotRouter } from './list-appender';
import { parseWorkerConfig, STOP_LINE, workerLine, type WorkerConfig } from './client-wire';

// Nothing to report to once the checker's end of the pipe is gone.
process.stdout.on('error', () => process.exit(1));

let config: WorkerConfig | undefined;
let stopping = false;
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (!config) {
    try {
      config = parseWorkerConfig(line);
    } catch (err) {
      console.error((err as Error).message);
      process.exit(2);
    }
    void run(config);
  } else if (line.trim() === STOP_LINE) {
    stopping = true;
  }
});
lines.on('close', () => {
  stopping = true;
  if (!config) process.exit(2);
});

async function run(c: WorkerConfig): Promise<void> {
  setTimeout(() => process.exit(3), Math.max(0, c.deadline - Date.now()) + 10_000).unref();
  const until = () => stopping || Date.now() >= c.deadline;
  // Connections of its own per client, as separate applications would have (see run.ts).
  const routers = c.clients.map(() => new SlotRouter(c.seeds, c.login));
  for (const r of routers) await r.refresh();
  const refresher = (async () => {
    while (!until()) {
      await Promise.all(routers.map((r) => r.refresh()));
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  let sent = 0;
  const record = (op: AppendOp) => {
    sent++;
    process.stdout.write(workerLine({ op }));
  };
  process.stdout.write(workerLine({ ready: true }));
  await Promise.all(c.clients.map((x, i) => appendLoop({ router: routers[i]!, client: x.client, kind: x.kind, keys: c.keys, t0: c.t0, until, record })));
  await refresher;
  for (const r of routers) r.close();
  process.stdout.write(workerLine({ done: sent }), () => process.exit(0));
}
