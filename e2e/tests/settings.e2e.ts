import { Cluster as RedisCluster } from 'ioredis';
import { test, expect, saveScreenshot, uniqueName } from '../support/fixtures';
import { SettingsTab } from '../support/pages/SettingsTab';

test('Settings tab: 3 -> 4 shards, the plan drawn before anything changes, apply, progress reaches 100%', async ({
  signedInPage: page, api, createCluster, clusterPage,
}, testInfo) => {
  const cluster = await createCluster({ name: uniqueName('e2e-reshard'), shards: 3, replicasPerShard: 0, memoryMbPerShard: 64 }, { waitReady: true });
  // Data to move: 6,000 keys.
  const conn = await api.getConnection(cluster.id);
  const u = new URL(conn.uri);
  const redis = new RedisCluster(conn.seeds.map((s) => ({ host: s.split(':')[0]!, port: Number(s.split(':')[1]) })), {
    redisOptions: { username: conn.username, password: conn.password },
  });
  for (let i = 0; i < 6000; i += 500) await Promise.all(Array.from({ length: 500 }, (_, k) => redis.set(`e2e:${i + k}`, `v${i + k}`)));
  expect(u.protocol).toBe('redis:');

  await clusterPage.goto(cluster.id);
  await clusterPage.openTab('Settings');
  const settings = new SettingsTab(page);
  await expect(settings.shards).toHaveValue('3');
  // Client certificates need TLS: a plain-text cluster is told so instead of offered them.
  await expect(settings.clientAuthNotApplicable).toContainText('not applicable');
  await expect(settings.clientAuth).toHaveCount(0);
  // TLS switches in place only on valkey-8: on this Redis 7.0 cluster the setting says why and cannot change.
  await expect(settings.tls).toBeDisabled();
  await expect(settings.tlsBlocked).toContainText('needs the valkey-8 engine');
  await expect(settings.tlsSwitchButton).toBeDisabled();
  await settings.shards.fill('4');
  await settings.previewButton.click();

  // The plan: slots moving into the new shard on the slot bar, one new primary on a node, ordered steps.
  await expect(settings.plan).toBeVisible();
  await expect(settings.planSlotBar).toHaveAttribute('aria-label', /4096 slots move: shard 1 to shard 4, shard 2 to shard 4, shard 3 to shard 4/);
  await expect(settings.planMoves.locator('tbody tr')).toHaveCount(3);
  await expect(settings.planInstances).toContainText('+ shard 4 primary');
  await expect(settings.planSteps.locator('li')).toHaveText([/Start 1 new instance/, /New primaries meet/, /Move 4096 slots/, /Record the new topology/]);
  // What the move costs at each migration priority, the default one marked.
  await expect(page.getByTestId('plan-costs').locator('li')).toHaveText([/^gentle: about [\d.]+ s/, /^balanced \(chosen\): about [\d.]+ s/, /^fast: about [\d.]+ s/]);
  await saveScreenshot(page, 'settings-plan-3-to-4', testInfo);
  // A dry run changed nothing.
  expect((await api.getCluster(cluster.id)).spec.shards).toBe(3);

  await settings.applyButton.click();
  // Asked once, saying what happens to the running cluster.
  await expect(settings.applyDialog).toContainText('Shards: 3 → 4');
  await expect(settings.applyDialog).toContainText(/4,096 slots \(about [\d,]+ keys\) move between shards with live migration/);
  await expect(settings.applyDialog).toContainText('1 instance starts');
  await saveScreenshot(page, 'settings-apply-confirm', testInfo);
  await settings.confirmApplyButton.click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Change started' })).toBeVisible();
  await expect(settings.migration).toBeVisible();
  await expect(settings.migration).toBeInViewport();
  await expect(settings.percent).toHaveText('100%', { timeout: 90_000 });
  await expect(settings.migration).toContainText('Change complete');
  await expect(settings.stats).toContainText('4096 / 4096');
  await saveScreenshot(page, 'settings-progress-done', testInfo);
  const after = await api.getCluster(cluster.id);
  expect(after.spec.shards).toBe(4);
  expect((await api.topology(cluster.id)).shards).toHaveLength(4);
  redis.disconnect();
  const fresh = new RedisCluster(conn.seeds.map((s) => ({ host: s.split(':')[0]!, port: Number(s.split(':')[1]) })), {
    redisOptions: { username: conn.username, password: conn.password },
  });
  await new Promise((res) => fresh.once('ready', res));
  let keys = 0;
  for (const n of fresh.nodes('master')) keys += Number(await n.dbsize());
  expect(fresh.nodes('master')).toHaveLength(4);
  expect(keys).toBe(6000);
  await expect(settings.switchoverButton(0)).toBeDisabled(); // no replica to promote
  fresh.disconnect();
});

test('Settings tab: TLS turned on in place on a valkey-8 cluster, asked first with what happens, then both protocols served', async ({
  signedInPage: page, api, createCluster, clusterPage,
}) => {
  const cluster = await createCluster({ name: uniqueName('e2e-tls-switch'), engineVersion: 'valkey-8' }, { waitReady: true });
  await clusterPage.goto(cluster.id);
  await clusterPage.openTab('Settings');
  const settings = new SettingsTab(page);
  await expect(settings.tlsBlocked).toHaveCount(0);
  await expect(settings.tlsSwitchButton).toBeDisabled();
  await settings.tls.selectOption({ label: 'Preferred (both)' });
  await settings.tlsSwitchButton.click();
  await expect(settings.tlsDialog).toContainText('serving TLS on a second port beside plain text');
  await expect(settings.tlsDialog).toContainText('No restart');
  await settings.tlsDialog.getByRole('button', { name: 'Switch TLS' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'TLS switch started' })).toBeVisible();
  await expect.poll(async () => (await api.getConnection(cluster.id)).tlsServed, { timeout: 60_000 }).toBe('plain+tls');
  const conn = await api.getConnection(cluster.id);
  expect(conn.uri).toMatch(/^redis:\/\//);
  expect(conn.tlsUri).toMatch(/^rediss:\/\//);
  // The connection details offer the TLS URI and the CA beside the plain one.
  await clusterPage.openTab('Overview');
  const both = clusterPage.connection.getByTestId('tls-preferred');
  await expect(both).toContainText(conn.tlsUri!.split('@')[1]!);
  await expect(both.getByTestId('download-ca')).toBeVisible();
});
