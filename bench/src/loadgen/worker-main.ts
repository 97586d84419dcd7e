/** Entry point of a load generator worker thread. */
import { parentPort, workerData } from 'node:worker_threads';
import { OpsRunner } from './ops-runner';
import { scanNode } from './analytic-scan';
import type { FromWorker, ToWorker, WorkerConfig } from './protocol';
import { loadHistograms } from '../histogram';

// A load worker measures from its first command: the histogram library is loaded before that.
loadHistograms();

const cfg = workerData as WorkerConfig;
const port = parentPort!;
const post = (m: FromWorker) => port.postMessage(m);
const runner = new OpsRunner(cfg, post);

port.on('message', (m: ToWorker) => {
  void handle(m).catch((err: unknown) => post({ type: 'error', message: err instanceof Error ? err.message : String(err) }));
});

async function handle(m: ToWorker): Promise<void> {
  switch (m.cmd) {
    case 'load':
      await runner.load(m.from, m.to);
      return;
    case 'run':
      await runner.run(m.startAtMs, m.warmupSec, m.durationSec, m.operationCount, m.watchEndpoint);
      return;
    case 'analytic': {
      const results = await Promise.all(m.primaries.map((e) => scanNode(e, cfg.auth, undefined, cfg.keyPrefix)));
      post({
        type: 'analytic-done',
        records: results.reduce((a, r) => a + r.records, 0),
        sentences: results.reduce((a, r) => a + r.sentences, 0),
        longestBatchMs: Math.max(0, ...results.map((r) => r.longestBatchMs)),
        errors: results.reduce((a, r) => a + r.errors, 0),
        firstError: results.find((r) => r.firstError)?.firstError,
      });
      return;
    }
    case 'stop':
      runner.stop();
      return;
  }
}

runner
  .connect()
  .then((primaries) => post({ type: 'ready', primaries }))
  .catch((err: unknown) => post({ type: 'error', message: err instanceof Error ? err.message : String(err) }));
