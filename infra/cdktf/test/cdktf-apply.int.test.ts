/**
 * The Terraform CLI path end to end, against a live local stack (127.0.53.x):
 *  - the provider built from infra/terraform-provider-strata;
 *  - the README's quickstart (examples/quickstart) with dev_overrides and no `terraform init`;
 *  - the same binary under dev_overrides: an in-place update, import, and drift after a delete outside Terraform;
 *  - the cdktf example app: synthesized, `terraform init` offline from a filesystem mirror, applied,
 *    a second plan empty, destroyed (the cluster gone from the API);
 *  - the systemd units the deployment stack installs pass `systemd-analyze verify`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App } from 'cdktf';
import { createStrataClient } from '@strata/api/client';
import { startStack, type Stack } from '@strata/local';
import { ExampleAppStack } from '../src/stacks/example-app';
import { DataStrataBackup, DataStrataCluster, DataStrataNodes, StrataAlertRule, StrataApiToken, StrataClientCertificate, StrataCluster, StrataDatabaseUser, StrataNotificationChannel } from '../src/strata';

const repo = path.resolve(import.meta.dirname, '../../..');
const providerDir = path.join(repo, 'infra/terraform-provider-strata');
const VERSION = '0.1.0';

function run(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: { ...process.env, CHECKPOINT_DISABLE: '1', ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, out }));
  });
}
async function ok(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  const r = await run(cmd, args, opts);
  expect(r.status, `${cmd} ${args.join(' ')}\n${r.out.slice(-4000)}`).toBe(0);
  return r.out;
}

let dir: string;
let stack: Stack;
let bin: string;
let mirror: string;

/** The stack's admin, through the typed client generated from openapi.json. */
const admin = () => createStrataClient({ baseUrl: stack.url, token: stack.adminToken });
const clusterNamed = async (name: string) => (await admin().GET('/v1/clusters')).data!.items.find((c) => c.name === name);
const tokens = async () => (await admin().GET('/v1/tokens')).data!.items;
const clusterStatus = async (id: string) => (await admin().GET('/v1/clusters/{id}', { params: { path: { id } } })).response.status;
const strataEnv = () => ({ STRATA_ENDPOINT: stack.url, STRATA_TOKEN: stack.adminToken });

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'strata-cdktf-it-'));
  // The provider twice: a plain binary for dev_overrides, and a filesystem mirror for `terraform init`.
  bin = path.join(dir, 'bin');
  mirror = path.join(dir, 'mirror');
  const target = path.join(mirror, 'registry.terraform.io/strata/strata', VERSION, 'linux_amd64');
  mkdirSync(target, { recursive: true });
  await ok('go', ['build', '-ldflags', `-X main.version=${VERSION}`, '-o', path.join(bin, 'terraform-provider-strata'), '.'], { cwd: providerDir });
  cpSync(path.join(bin, 'terraform-provider-strata'), path.join(target, `terraform-provider-strata_v${VERSION}`));
  stack = await startStack({ endWithLauncher: true, dir: path.join(dir, 'stack'), addressPrefix: '127.0.53', nodes: 2, port: 0, fastPostgres: true });
}, 600_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('Terraform CLI with the built provider', () => {
  it('the README quickstart applies with dev_overrides and no terraform init, plans empty, and destroys', async () => {
    const cli = path.join(dir, 'dev.tfrc');
    writeFileSync(cli, `provider_installation {\n  dev_overrides {\n    "registry.terraform.io/strata/strata" = "${bin}"\n  }\n  direct {}\n}\n`);
    const work = path.join(dir, 'quickstart');
    cpSync(path.join(providerDir, 'examples/quickstart'), work, { recursive: true });
    const env = { ...strataEnv(), TF_CLI_CONFIG_FILE: cli };

    await ok('terraform', ['apply', '-auto-approve', '-input=false'], { cwd: work, env });
    const status = JSON.parse(await ok('terraform', ['output', '-json'], { cwd: work, env }));
    expect(status.status.value).toBe('ready');
    expect(status.seeds.value).toHaveLength(2);
    expect(status.nodes.value).toHaveLength(2);
    const c = await clusterNamed('tf-quickstart');
    expect(c).toMatchObject({ spec: { shards: 2, replicasPerShard: 1, memoryMbPerShard: 64, evictionPolicy: 'allkeys-lru' }, status: { phase: 'ready' } });
    expect((await tokens()).some((t) => t.name === 'quickstart-app' && !t.revokedAt)).toBe(true);

    const plan = await run('terraform', ['plan', '-detailed-exitcode', '-input=false'], { cwd: work, env });
    expect(plan.status, plan.out).toBe(0); // 0 = no changes

    await ok('terraform', ['destroy', '-auto-approve', '-input=false'], { cwd: work, env });
    expect(await clusterNamed('tf-quickstart')).toBeUndefined();
    expect((await tokens()).find((t) => t.name === 'quickstart-app')?.revokedAt).toBeTruthy();
  });

  it('the built binary under dev_overrides updates in place, imports, and shows a cluster deleted outside Terraform as drift', async () => {
    const cli = path.join(dir, 'dev.tfrc');
    writeFileSync(cli, `provider_installation {\n  dev_overrides {\n    "registry.terraform.io/strata/strata" = "${bin}"\n  }\n  direct {}\n}\n`);
    const work = path.join(dir, 'lifecycle');
    mkdirSync(work, { recursive: true });
    const config = (memory: number, eviction: string) => writeFileSync(path.join(work, 'main.tf'), `
terraform {
  required_providers {
    strata = { source = "strata/strata" }
  }
}

resource "strata_cluster" "c" {
  name                = "tf-lifecycle"
  shards              = 1
  replicas_per_shard  = 0
  memory_mb_per_shard = ${memory}
  eviction_policy     = "${eviction}"
}
`);
    const env = { ...strataEnv(), TF_CLI_CONFIG_FILE: cli };
    // Options go between the subcommand and its arguments (`terraform import -input=false ADDR ID`).
    const tf = (cmd: string, ...args: string[]) => run('terraform', [cmd, '-input=false', '-no-color', ...args], { cwd: work, env });

    config(16, 'noeviction');
    const applied = await tf('apply', '-auto-approve');
    expect(applied.status, applied.out).toBe(0);
    const created = (await clusterNamed('tf-lifecycle'))!;
    expect(created.status.phase).toBe('ready');

    // In place: the plan changes one resource and destroys none; the same cluster gets the new spec.
    config(24, 'allkeys-lru');
    const plan = await tf('plan');
    expect(plan.out).toMatch(/strata_cluster\.c will be updated in-place/);
    expect(plan.out).toMatch(/0 to add, 1 to change, 0 to destroy/);
    const updating = await tf('apply', '-auto-approve');
    expect(updating.status, updating.out).toBe(0);
    const updated = (await clusterNamed('tf-lifecycle'))!;
    expect(updated.id).toBe(created.id);
    expect(updated.spec).toMatchObject({ memoryMbPerShard: 24, evictionPolicy: 'allkeys-lru' });

    // Import: forget it, import it by id, and the plan is empty.
    const removed = await run('terraform', ['state', 'rm', 'strata_cluster.c'], { cwd: work, env });
    expect(removed.status, removed.out).toBe(0);
    const imported = await tf('import', 'strata_cluster.c', created.id);
    expect(imported.status, imported.out).toBe(0);
    const afterImport = await tf('plan', '-detailed-exitcode');
    expect(afterImport.status, afterImport.out).toBe(0);

    // Drift: deleted through the API, the next plan creates it again.
    const del = await admin().DELETE('/v1/clusters/{id}', { params: { path: { id: created.id } } });
    expect(del.response.status).toBe(202);
    for (let i = 0; i < 600 && (await clusterStatus(created.id)) !== 404; i++) await new Promise((r) => setTimeout(r, 200));
    const drift = await tf('plan', '-detailed-exitcode');
    expect(drift.status, drift.out).toBe(2); // 2 = changes
    expect(drift.out).toMatch(/strata_cluster\.c will be created/);
    const destroyed = await tf('destroy', '-auto-approve');
    expect(destroyed.status, destroyed.out).toBe(0);
    expect(await clusterNamed('tf-lifecycle')).toBeUndefined();
  });

  it('the hand-written cdktf bindings name exactly the attributes the built provider declares', async () => {
    const cli = path.join(dir, 'dev.tfrc');
    writeFileSync(cli, `provider_installation {\n  dev_overrides {\n    "registry.terraform.io/strata/strata" = "${bin}"\n  }\n  direct {}\n}\n`);
    const work = path.join(dir, 'schema');
    mkdirSync(work, { recursive: true });
    writeFileSync(path.join(work, 'main.tf'), 'terraform {\n  required_providers {\n    strata = { source = "strata/strata" }\n  }\n}\n');
    const out = await ok('terraform', ['providers', 'schema', '-json'], { cwd: work, env: { TF_CLI_CONFIG_FILE: cli } });
    type Block = { attributes: Record<string, { nested_type?: { attributes: Record<string, unknown> } }> };
    const schema = (JSON.parse(out.slice(out.indexOf('{'))) as { provider_schemas: Record<string, { resource_schemas: Record<string, { block: Block }>; data_source_schemas: Record<string, { block: Block }> }> })
      .provider_schemas['registry.terraform.io/strata/strata']!;
    const names = (b: Block) => Object.keys(b.attributes).sort();
    expect([...StrataCluster.tfAttributes].sort()).toEqual(names(schema.resource_schemas.strata_cluster!.block));
    expect([...StrataApiToken.tfAttributes].sort()).toEqual(names(schema.resource_schemas.strata_api_token!.block));
    expect([...StrataNotificationChannel.tfAttributes].sort()).toEqual(names(schema.resource_schemas.strata_notification_channel!.block));
    expect([...StrataAlertRule.tfAttributes].sort()).toEqual(names(schema.resource_schemas.strata_alert_rule!.block));
    expect([...StrataDatabaseUser.tfAttributes].sort()).toEqual(names(schema.resource_schemas.strata_database_user!.block));
    expect([...StrataClientCertificate.tfAttributes].sort()).toEqual(names(schema.resource_schemas.strata_client_certificate!.block));
    expect(Object.keys(schema.resource_schemas.strata_cluster!.block.attributes.ca_rotation!.nested_type!.attributes).sort()).toEqual(['retire_after_seconds', 'trigger']);
    expect([...DataStrataCluster.tfAttributes].sort()).toEqual(names(schema.data_source_schemas.strata_cluster!.block));
    expect([...DataStrataBackup.tfAttributes].sort()).toEqual(names(schema.data_source_schemas.strata_backup!.block));
    const nodes = schema.data_source_schemas.strata_nodes!.block;
    expect([...DataStrataNodes.tfAttributes].sort()).toEqual(names(nodes));
    expect([...DataStrataNodes.tfNodeAttributes].sort()).toEqual(Object.keys(nodes.attributes.nodes!.nested_type!.attributes).sort());
  });

  it('the cdktf example app synthesizes, inits offline from a filesystem mirror, applies, plans empty and destroys', async () => {
    const out = path.join(dir, 'cdktf.out');
    const app = new App({ outdir: out });
    new ExampleAppStack(app, 'example-app', { clusterName: 'cdktf-it', shards: 1, replicasPerShard: 1, memoryMbPerShard: 32 });
    app.synth();
    const work = path.join(out, 'stacks/example-app');

    const cli = path.join(dir, 'mirror.tfrc');
    writeFileSync(cli, `provider_installation {\n  filesystem_mirror {\n    path    = "${mirror}"\n    include = ["registry.terraform.io/strata/*"]\n  }\n  direct {\n    exclude = ["registry.terraform.io/strata/*"]\n  }\n}\n`);
    const env = { ...strataEnv(), TF_CLI_CONFIG_FILE: cli };

    const init = await ok('terraform', ['init', '-input=false', '-no-color'], { cwd: work, env });
    expect(init).toMatch(/Installed strata\/strata v0\.1\.0/);
    await ok('terraform', ['apply', '-auto-approve', '-input=false'], { cwd: work, env });
    const outputs = JSON.parse(await ok('terraform', ['output', '-json'], { cwd: work, env }));
    const c = await clusterNamed('cdktf-it');
    expect(c?.status.phase).toBe('ready');
    expect(outputs.cluster_id.value).toBe(c!.id);
    expect(outputs.app_token.value).toMatch(/^stk_/);
    expect(outputs.reader_password.value).toMatch(/^[0-9a-f]{64}$/);
    const users = (await admin().GET('/v1/clusters/{id}/users', { params: { path: { id: c!.id } } })).data!.items;
    expect(users.map((u) => [u.name, u.preset, u.keyPatterns])).toEqual([['session-reader', 'read-only', ['session:*']]]);
    // The token the stack made works, read-only.
    const appToken = createStrataClient({ baseUrl: stack.url, token: outputs.app_token.value });
    expect((await appToken.GET('/v1/clusters/{id}', { params: { path: { id: c!.id } } })).response.status).toBe(200);
    expect((await appToken.DELETE('/v1/clusters/{id}', { params: { path: { id: c!.id } } })).response.status).toBe(403);

    const plan = await run('terraform', ['plan', '-detailed-exitcode', '-input=false'], { cwd: work, env });
    expect(plan.status, plan.out).toBe(0);

    await ok('terraform', ['destroy', '-auto-approve', '-input=false'], { cwd: work, env });
    expect(await clusterStatus(c!.id)).toBe(404);
  });

  it('the systemd units pass systemd-analyze verify', async () => {
    for (const unit of ['strata-agent.service', 'strata-control-plane.service']) {
      const r = await run('systemd-analyze', ['verify', '--man=no', path.join(repo, 'infra/systemd', unit)], { cwd: repo });
      // User=strata does not exist on this machine; everything else must be clean.
      const problems = r.out.split('\n').filter((l) => l.trim() && !/Failed to resolve user|user.*strata|No such process/i.test(l));
      expect(problems, r.out).toEqual([]);
    }
  });
});
