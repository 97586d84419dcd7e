import { existsSync, mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { AgentConfig } from './config';
import type { ControlPlaneClient } from './control-plane.client';

export const AGENT_VERSION = '0.1.0';

interface Identity { nodeId: string; credential: string; controlPlaneUrl: string }

/**
 * The node's identity lives in its data directory (mode 0600). The first run
 * registers with a one-time join token; later runs reuse the credential.
 */
export async function ensureRegistered(config: AgentConfig, client: ControlPlaneClient, log: Logger): Promise<Identity> {
  const file = path.join(config.dataDir, 'agent.json');
  if (existsSync(file)) {
    const id = JSON.parse(readFileSync(file, 'utf8')) as Identity;
    client.setCredential(id.credential);
    return id;
  }
  if (!config.joinToken) {
    throw new Error(`this node is not registered (no ${file}) and STRATA_JOIN_TOKEN is not set; create one with POST /v1/nodes/join-tokens`);
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const res = await client.register({
    joinToken: config.joinToken, name: config.name, address: config.address, memoryMb: config.memoryMb, agentVersion: AGENT_VERSION,
  });
  const identity: Identity = { nodeId: res.nodeId, credential: res.credential, controlPlaneUrl: config.controlPlaneUrl };
  writeFileSync(file + '.tmp', JSON.stringify(identity, null, 2), { mode: 0o600 });
  renameSync(file + '.tmp', file);
  client.setCredential(res.credential);
  log.info({ nodeId: res.nodeId, name: config.name }, 'registered with the control plane');
  return identity;
}
