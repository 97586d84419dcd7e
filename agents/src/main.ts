/** Composition root of the node agent. */
import pino from 'pino';
import { loadConfig } from './config';
import { ControlPlaneClient } from './control-plane.client';
import { ensureRegistered } from './registration';
import { InstanceRegistry } from './instance-registry';
import { EngineSupervisor } from './engine-supervisor';
import { StatusReporter } from './status-reporter';
import { TaskRunner } from './task-runner';
import { SparePool } from './spare-pool';
import { InstanceConnections } from './instance-connections';
import { MetricsSampler, PUSH_SPREAD_MS } from './metrics/metrics-sampler';
import { controlPlaneTrust } from './control-plane-trust';
import { carriedMetricsSink } from './metrics/carried-metrics-sink';
import { EndpointServer } from './endpoint-server';
import { FloatingAddress } from './floating-address/floating-address';
import { redisProcessesUnder, stopProcesses } from './process-utils';
import { sweepDiskProfiles } from './disk-profile/disk-profile-runner';
import { sweepRestoreScratch } from './backup/restore-keys';

/**
 * A stop that stops engines ends within this bound whatever is in flight:
 * engines get SIGTERM at once (SIGKILL after the supervisor's grace), and
 * at the deadline every engine still known gets SIGKILL and the agent exits.
 */
const STOP_DEADLINE_MS = 7000;

async function main(): Promise<void> {
  const config = loadConfig();
  const log = pino({ level: config.logLevel, name: `agent:${config.name}`, redact: ['*.password', '*.credentials', '*.credential'] });
  const ca = await controlPlaneTrust({ ...config, log });
  const client = new ControlPlaneClient(config.controlPlaneUrls, undefined, { ca, log });

  let identity;
  for (let attempt = 1; ; attempt++) {
    try {
      identity = await ensureRegistered(config, client, log);
      break;
    } catch (err) {
      const e = err as Error & { status?: number };
      if (e.status && e.status < 500) throw err;
      if (attempt === 1 || attempt % 10 === 0) log.warn({ err: e.message }, 'control plane not reachable yet; retrying');
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  const registry = new InstanceRegistry(config.dataDir);
  let reporter: StatusReporter | undefined;
  const spares = new SparePool({
    dataDir: config.dataDir, address: config.address, redisServer: config.redisServer, log, count: config.spares,
    topPort: config.spareTopPort, usedPorts: () => new Set(registry.all().flatMap((r) => [r.spec.port, ...(r.spec.tlsLayout?.secondPort ? [r.spec.tlsLayout.secondPort] : [])])), onChange: () => reporter?.poke(),
  });
  const supervisor = new EngineSupervisor({
    registry, address: config.address, redisServer: config.redisServer, valkeyServer: config.valkeyServer, log, onChange: () => reporter?.poke(), spares,
  });
  const connections = new InstanceConnections({ address: config.address, timeoutMs: 500 });
  const floating = config.floatingAddress
    ? new FloatingAddress({ spec: config.floatingAddress.spec, keepalived: config.floatingAddress.keepalived, dataDir: config.dataDir, name: config.name, log })
    : undefined;
  const endpoints = new EndpointServer({
    fetch: () => client.endpoints(), log, bindAddress: config.endpointBind, onChange: () => reporter?.poke(), ...(floating ? { holdsAddress: () => floating.holds() } : {}),
  });
  reporter = new StatusReporter({
    client, registry, supervisor, spares, connections, address: config.address, memoryMb: config.memoryMb, log, endpointPorts: () => endpoints.servingPorts(),
  });
  await supervisor.recover();
  await spares.start();
  // A redis-server in this node's directory that is neither an instance nor a spare (a spare whose claim an agent
  // crash interrupted, an instance removed while its engine ran) would hold a port the node hands out again.
  const strays = redisProcessesUnder(config.dataDir).filter((p) => !supervisor.enginePids().includes(p.pid) && !spares.pids().includes(p.pid));
  if (strays.length) {
    log.warn({ engines: strays.map((p) => ({ pid: p.pid, command: p.command, cwd: p.cwd })) }, 'stopping engines in this node\'s directory that belong to no instance or spare');
    await stopProcesses(strays.map((p) => p.pid), 2000);
  }
  // A disk profile an agent crash interrupted: its fio died with that agent; its files go now.
  await sweepDiskProfiles(config.dataDir, log);
  // A restore an agent crash interrupted: its temporary engine was stopped above (a stray); its directory goes now.
  await sweepRestoreScratch(config.dataDir, log);
  reporter.start();
  await floating?.start();
  endpoints.start();
  // Samples are taken on the second on every node; pushes spread over the next 700 ms (stable per node): a fleet's
  // pushes packed into 400 ms kept the control plane busy in bursts, and API requests waited behind them (p99 255 ms
  // at 1,000 nodes, 78 ms spread; infra/local/bench/metrics-ingest.bench.ts). Live charts draw a second at +950 ms.
  const pushDelayMs = [...identity.nodeId].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7) % PUSH_SPREAD_MS;
  // The steady status report rides on the metrics push (one request per second per node, not two).
  const sink = carriedMetricsSink({ client, reporter, log });
  const metrics = new MetricsSampler({ sink, registry, supervisor, connections, dataDir: config.dataDir, log, pushDelayMs, pushEverySeconds: config.metricsPushSeconds });
  metrics.start();
  const runner = new TaskRunner({ client, supervisor, connections, log, onDone: () => reporter?.poke(), migrateSlotsPerRound: config.migrateSlotsPerRound, loadgen: config.loadgen, dataDir: config.dataDir, backupMaxBytesPerSec: config.backupMaxBytesPerSec,
    restore: { address: config.address, redisServer: config.redisServer, maxKeysPerSec: config.restoreMaxKeysPerSec } });
  log.info({ nodeId: identity.nodeId, address: config.address, instances: registry.all().length, controlPlanes: config.controlPlaneUrls }, 'agent ready');
  process.stdout.write(`STRATA_AGENT_READY ${identity.nodeId}\n`);
  const loop = runner.run();

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, stopEngines: config.stopEnginesOnExit }, 'agent stopping');
    reporter?.stop();
    // The address goes first: another host takes it at once (keepalived's priority-0 advert) while this one stops.
    const released = floating?.stop();
    endpoints.stop();
    metrics.stop();
    // By default engines outlive the agent (an agent upgrade must not take data offline).
    if (config.stopEnginesOnExit) {
      setTimeout(() => {
        log.error({ deadlineMs: STOP_DEADLINE_MS }, 'stop overran its deadline: killing every engine (SIGKILL) and exiting');
        supervisor.killAll();
        spares.killAll();
        floating?.killAll();
        process.exit(1);
      }, STOP_DEADLINE_MS);
      // Engines stop at once, not after the running tasks: a task that is still starting one cannot start it any more.
      // Running tasks get a second to report (the control plane is usually stopping too; a lease that expires is retried).
      const [killed, killedSpares] = await Promise.all([supervisor.stopAll(), spares.stopAll(), runner.stop(1000)]);
      if (killed.length || killedSpares.length) log.warn({ engines: killed, spares: killedSpares }, 'engines that did not stop on SIGTERM in time were killed (SIGKILL)');
      log.info('engines stopped');
      connections.closeAll();
    } else {
      await runner.stop();
      connections.closeAll();
      await loop.catch(() => {});
      supervisor.detach();
      spares.detach();
    }
    await released;
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(`agent failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
