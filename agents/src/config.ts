/** The only agent module that reads the environment. */
import { z } from 'zod';
import os from 'node:os';
import path from 'node:path';
import type { LoadGeneratorEngine } from '@strata/bench/loadgen';
import { floatingAddressProblem, type FloatingAddressSpec } from './floating-address/keepalived-config';

/**
 * STRATA_URL: one control plane, or several sharing one database, comma-separated (tried in this order; one that
 * cannot be reached hands over to the next). Every entry an http(s) URL, all of one scheme (one trust for all).
 */
export const ControlPlaneUrls = z.string().transform((value, ctx) => {
  const entries = value.split(',').map((u) => u.trim().replace(/\/$/, ''));
  const urls: string[] = [];
  entries.forEach((entry, i) => {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch { /* reported below */ }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash) {
      ctx.addIssue({ code: 'custom', message: `entry ${i + 1} of ${entries.length} ("${entry}") is not a control plane URL (http(s)://host:port)` });
    } else urls.push(entry);
  });
  if (urls.length === entries.length && new Set(urls.map((u) => new URL(u).protocol)).size > 1) {
    ctx.addIssue({ code: 'custom', message: 'mixes http and https: every control plane of one deployment is reached the same way' });
  }
  if (new Set(urls).size < urls.length) ctx.addIssue({ code: 'custom', message: 'names a control plane twice' });
  return urls;
});

const Env = z.object({
  STRATA_URL: ControlPlaneUrls,
  STRATA_JOIN_TOKEN: z.string().optional(),
  /** HTTPS control plane: the SHA-256 of its CA to pin at the first start (the join token's controlPlaneCaSha256). */
  STRATA_CA_SHA256: z.string().regex(/^([0-9a-fA-F]{2}:?){32}$/, 'must be a SHA-256 fingerprint (64 hex digits, colons allowed)').optional(),
  /** HTTPS control plane: a CA certificate (PEM) to trust instead of pinning. */
  STRATA_CA_FILE: z.string().min(1).optional(),
  STRATA_AGENT_DIR: z.string().default('/var/lib/strata-agent'),
  STRATA_AGENT_NAME: z.string().min(1).default(os.hostname()),
  STRATA_AGENT_ADDRESS: z.ipv4().default('127.0.0.1'),
  STRATA_AGENT_MEMORY_MB: z.coerce.number().int().min(64).default(Math.floor(os.totalmem() / 1024 / 1024 / 2)),
  STRATA_AGENT_STOP_ENGINES_ON_EXIT: z.enum(['true', 'false']).default('false'),
  STRATA_REDIS_SERVER: z.string().default('redis-server'),
  /** The valkey-8 engine's server (Valkey 8). */
  STRATA_VALKEY_SERVER: z.string().default('valkey-server'),
  STRATA_AGENT_SPARES: z.coerce.number().int().min(0).max(50).default(3),
  /** Upper bound on a backup upload's rate in MB/s (0: unlimited), to spare the host's network. */
  STRATA_AGENT_BACKUP_MAX_MBPS: z.coerce.number().min(0).default(0),
  /** Upper bound on the keys a restore task moves per second into a new cluster (0: unlimited), to spare its primaries. */
  STRATA_AGENT_RESTORE_MAX_KEYS_PER_SEC: z.coerce.number().int().min(0).default(0),
  STRATA_AGENT_SPARE_TOP_PORT: z.coerce.number().int().min(1100).max(55535).default(7999),
  STRATA_AGENT_METRICS_PUSH_SECONDS: z.coerce.number().int().min(1).max(60).default(1),
  STRATA_LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'silent']).default('info'),
  STRATA_AGENT_ENDPOINT_BIND: z.string().min(1).optional(),
  /** A floating endpoint address this agent runs keepalived (VRRP) for, with its prefix length: 10.0.1.200/24. */
  STRATA_AGENT_FLOATING_ADDRESS: z.string().regex(/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/, 'must be an IPv4 address with its prefix length, like 10.0.1.200/24').optional(),
  /** The other agents' hosts (comma-separated addresses) VRRP adverts go to. */
  STRATA_AGENT_FLOATING_PEERS: z.string().default(''),
  /** 1..254: the highest holds the address first. */
  STRATA_AGENT_FLOATING_PRIORITY: z.coerce.number().int().min(1).max(254).default(100),
  /** The interface the address goes on (default: the one holding STRATA_AGENT_ADDRESS). */
  STRATA_AGENT_FLOATING_INTERFACE: z.string().min(1).optional(),
  STRATA_AGENT_FLOATING_ROUTER_ID: z.coerce.number().int().min(1).max(255).default(51),
  /** Seconds between VRRP adverts; a silent holder loses the address after about three. */
  STRATA_AGENT_FLOATING_ADVERT_SECONDS: z.coerce.number().min(0.01).max(40.95).default(0.5),
  STRATA_KEEPALIVED: z.string().min(1).default('keepalived'),
  /** Slots opened together per (source, target) pair in a slot migration; smaller rounds stop sooner on pause. */
  STRATA_AGENT_MIGRATE_SLOTS_PER_ROUND: z.coerce.number().int().min(1).max(4096).optional(),
  /** Benchmarks: which worker runs closed-loop YCSB run phases (auto: the native worker when it is built). */
  STRATA_LOADGEN_ENGINE: z.enum(['auto', 'native', 'js']).default('auto'),
  /** Benchmarks: the native worker's binary, when not where `npm run build:native` puts it. */
  STRATA_LOADGEN_NATIVE_WORKER: z.string().min(1).optional(),
});

export interface AgentConfig {
  /** The first control plane of STRATA_URL. */
  controlPlaneUrl: string;
  /** Every control plane of STRATA_URL, in order (the agent uses the first it can reach, reports status to all). */
  controlPlaneUrls: string[];
  joinToken?: string;
  /** The control plane's CA: its pin (first start) or a file (see control-plane-trust.ts). */
  caSha256?: string;
  caFile?: string;
  dataDir: string;
  name: string;
  address: string;
  memoryMb: number;
  stopEnginesOnExit: boolean;
  redisServer: string;
  /** The valkey-8 engine's server binary. */
  valkeyServer: string;
  /** Warm spare engines kept ready for new primaries, on ports counting down from spareTopPort. */
  spares: number;
  /** Overrides the migration priority's slots per round (tests slow a move down with it). */
  migrateSlotsPerRound?: number;
  spareTopPort: number;
  logLevel: string;
  /** Seconds of metric samples per push (1 = every second; more means fewer requests for large fleets, later live charts). */
  metricsPushSeconds: number;
  /**
   * Where cluster endpoints listen: by default the endpoint host the control
   * plane names (locally a loopback address the first agent to bind serves;
   * on hosts a floating IP only its holder can bind). `0.0.0.0` serves them on
   * every agent, behind a load balancer.
   */
  endpointBind?: string;
  /** keepalived (VRRP) for a floating endpoint address, when STRATA_AGENT_FLOATING_ADDRESS is set. */
  floatingAddress?: { spec: FloatingAddressSpec; keepalived: string };
  /** The benchmark load generator's engine choice and native worker binary (LoadGeneratorOptions). */
  loadgen: { engine: LoadGeneratorEngine; nativeWorker?: string };
  /** Backup uploads: at most this many bytes a second (0: unlimited). */
  backupMaxBytesPerSec: number;
  /** Restores into another layout: at most this many keys a second per task (0: unlimited). */
  restoreMaxKeysPerSec: number;
}

function floatingSpec(e: z.infer<typeof Env>): FloatingAddressSpec {
  const [address, prefix] = e.STRATA_AGENT_FLOATING_ADDRESS!.split('/');
  const iface = e.STRATA_AGENT_FLOATING_INTERFACE ?? Object.entries(os.networkInterfaces()).find(([, list]) => list?.some((a) => a.address === e.STRATA_AGENT_ADDRESS))?.[0];
  if (!iface) throw new Error(`invalid agent configuration:\n  STRATA_AGENT_FLOATING_INTERFACE: no interface holds ${e.STRATA_AGENT_ADDRESS}; name the one the floating address goes on`);
  const spec: FloatingAddressSpec = {
    address: address!, prefixLength: Number(prefix), interface: iface, sourceAddress: e.STRATA_AGENT_ADDRESS,
    peers: e.STRATA_AGENT_FLOATING_PEERS.split(',').map((p) => p.trim()).filter(Boolean),
    priority: e.STRATA_AGENT_FLOATING_PRIORITY, routerId: e.STRATA_AGENT_FLOATING_ROUTER_ID, advertSeconds: e.STRATA_AGENT_FLOATING_ADVERT_SECONDS,
  };
  const problem = floatingAddressProblem(spec);
  if (problem) throw new Error(`invalid agent configuration:\n  STRATA_AGENT_FLOATING_ADDRESS: ${problem}`);
  return spec;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AgentConfig {
  const r = Env.safeParse(env);
  if (!r.success) {
    throw new Error(`invalid agent configuration:\n${r.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  const e = r.data;
  return {
    controlPlaneUrl: e.STRATA_URL[0]!,
    controlPlaneUrls: e.STRATA_URL,
    joinToken: e.STRATA_JOIN_TOKEN,
    caSha256: e.STRATA_CA_SHA256,
    caFile: e.STRATA_CA_FILE ? path.resolve(e.STRATA_CA_FILE) : undefined,
    dataDir: path.resolve(e.STRATA_AGENT_DIR),
    name: e.STRATA_AGENT_NAME,
    address: e.STRATA_AGENT_ADDRESS,
    memoryMb: e.STRATA_AGENT_MEMORY_MB,
    stopEnginesOnExit: e.STRATA_AGENT_STOP_ENGINES_ON_EXIT === 'true',
    redisServer: e.STRATA_REDIS_SERVER,
    valkeyServer: e.STRATA_VALKEY_SERVER,
    spares: e.STRATA_AGENT_SPARES,
    migrateSlotsPerRound: e.STRATA_AGENT_MIGRATE_SLOTS_PER_ROUND,
    spareTopPort: e.STRATA_AGENT_SPARE_TOP_PORT,
    logLevel: e.STRATA_LOG_LEVEL,
    endpointBind: e.STRATA_AGENT_ENDPOINT_BIND,
    ...(e.STRATA_AGENT_FLOATING_ADDRESS ? { floatingAddress: { spec: floatingSpec(e), keepalived: e.STRATA_KEEPALIVED } } : {}),
    metricsPushSeconds: e.STRATA_AGENT_METRICS_PUSH_SECONDS,
    loadgen: { engine: e.STRATA_LOADGEN_ENGINE, nativeWorker: e.STRATA_LOADGEN_NATIVE_WORKER },
    backupMaxBytesPerSec: Math.round(e.STRATA_AGENT_BACKUP_MAX_MBPS * 1024 * 1024),
    restoreMaxKeysPerSec: e.STRATA_AGENT_RESTORE_MAX_KEYS_PER_SEC,
  };
}
