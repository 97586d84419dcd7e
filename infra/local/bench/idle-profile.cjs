// Preloaded (NODE_OPTIONS=--require) by idle-cost.bench.ts when PROFILE_DIR is set:
// SIGUSR2 starts a V8 CPU profile and an allocation sampling of the process,
// and counts garbage collections; the next SIGUSR2 writes
// PROFILE_DIR/<PROFILE_NAME>-<pid>.cpuprofile, .heapprofile and .gc.json
// (so only the measured window is recorded).
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { PerformanceObserver, constants } = require('node:perf_hooks');
const path = require('node:path');
let session = null;
let gc = null;
let observer = null;
const KINDS = { [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major', [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor', [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental', [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb' };
process.on('SIGUSR2', () => {
  const base = path.join(process.env.PROFILE_DIR, `${process.env.PROFILE_NAME || 'node'}-${process.pid}`);
  if (!session) {
    session = new Session();
    session.connect();
    gc = { started: Date.now(), heapBefore: process.memoryUsage(), kinds: {} };
    observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const k = KINDS[e.detail?.kind ?? e.kind] ?? String(e.detail?.kind);
        const v = (gc.kinds[k] ??= { n: 0, ms: 0 });
        v.n++;
        v.ms += e.duration;
      }
    });
    observer.observe({ entryTypes: ['gc'] });
    session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 500 }, () => session.post('Profiler.start')));
    session.post('HeapProfiler.enable', () => session.post('HeapProfiler.startSampling', { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }));
    return;
  }
  const s = session;
  session = null;
  observer.disconnect();
  writeFileSync(`${base}.gc.json`, JSON.stringify({ ...gc, ms: Date.now() - gc.started, heapAfter: process.memoryUsage() }, null, 1));
  s.post('Profiler.stop', (err, res) => {
    if (!err) writeFileSync(`${base}.cpuprofile`, JSON.stringify(res.profile));
    s.post('HeapProfiler.stopSampling', (err2, res2) => {
      if (!err2) writeFileSync(`${base}.heapprofile`, JSON.stringify(res2.profile));
      s.disconnect();
    });
  });
});
