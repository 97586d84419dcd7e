// Preloaded (NODE_OPTIONS=--require) by metrics-ingest.bench.ts when PROFILE_DIR is set:
// records a V8 CPU profile of the process and writes it to PROFILE_DIR on SIGTERM.
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const path = require('node:path');
const session = new Session();
session.connect();
session.post('Profiler.enable', () => session.post('Profiler.start'));
process.prependListener('SIGTERM', () => {
  session.post('Profiler.stop', (err, { profile }) => {
    if (!err) writeFileSync(path.join(process.env.PROFILE_DIR, `cp-${process.pid}.cpuprofile`), JSON.stringify(profile));
  });
});
