/**
 * Runs the Terraform provider's Go tests in `npm test`: unit tests, the generated-client check, and the
 * acceptance tests (TF_ACC=1, the terraform on PATH, no `terraform init`) against a live local stack
 * that the Go test harness starts on 127.0.52.x (testdata/stack.ts).
 */
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loopbackPrefix } from '@strata/local';

const dir = path.resolve(import.meta.dirname, '..');
/** Runs a command without blocking the test worker (vitest needs its event loop); resolves with status and output. */
export function runAsync(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, out }));
  });
}

const which = (bin: string) => spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' }).stdout.trim();

describe('terraform-provider-strata', () => {
  it('passes its Go unit and acceptance tests against a live stack', async () => {
    const terraform = which('terraform');
    expect(which('go'), 'Go is needed for the Terraform provider (see README, Automate)').not.toBe('');
    expect(terraform, 'terraform is needed for the provider acceptance tests (see README, Automate)').not.toBe('');
    const home = mkdtempSync(path.join(os.tmpdir(), 'strata-tfcli-'));
    const cli = path.join(home, 'terraformrc');
    writeFileSync(cli, '# empty: acceptance tests use in-process providers\n');
    try {
      const r = await runAsync('go', ['test', '-count=1', '-v', '-parallel', '8', '-timeout', '25m', './...'], {
        cwd: dir,
        env: {
          ...process.env, TF_ACC: '1', TF_ACC_TERRAFORM_PATH: terraform, TF_CLI_CONFIG_FILE: cli, CHECKPOINT_DISABLE: '1',
          STRATA_ENDPOINT: '', STRATA_TOKEN: '', STRATA_TEST_ADDRESS_PREFIX: loopbackPrefix('127.0.52'),
        },
      });
      const out = r.out;
      expect(r.status, out.slice(-6000)).toBe(0);
      for (const t of ['TestAccCluster', 'TestAccClusterTlsSwitch', 'TestAccClusterDeletedOutsideTerraform', 'TestAccClusterBackup', 'TestAccAPIToken', 'TestAccAlertRuleAndChannel', 'TestAccDatabaseUser', 'TestAccClientCertificateAndCARotation', 'TestCARotationAskedOnANewTrigger', 'TestAccNodesWithMemberTokenInProviderBlock', 'TestAccProviderBlockMissingToken', 'TestGeneratedFromCommittedSpec', 'TestGeneratedCodeIsFresh', 'TestWaitOperationHonorsRetryAfterAnd429']) {
        expect(out).toContain(`--- PASS: ${t} `);
      }
      expect(out).not.toContain('--- SKIP');
      // PATCH /v1/clusters/{id} (issue 8) is on this control plane: the in-place step really changes the cluster.
      expect(out).toContain('PATCH /v1/clusters/{id} is available: the in-place step changes memory_mb_per_shard');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 30 * 60_000);
});
