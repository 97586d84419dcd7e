
import { formCluster } from '../src/redis/admin/index';
import { planSlots } from '../src/redis/slots.planner';
import { startRedisFleet, TEST_CREDENTIALS as c } from '../src/redis/admin/testing/redis-fleet.fixture';
await (async () => {
  const H = ['127.0.5.1', '127.0.5.2', '127.0.5.3']; const sl = planSlots(3);
  const shards = H.map((host, i) => ({ slots: [sl[i]!], primary: { instanceId: 'p' + i, host, port: 7100 }, replicas: [{ instanceId: 'r' + i, host: H[(i + 1) % 3]!, port: 7101 }] }));
  const fleet = await startRedisFleet(shards.flatMap((s) => [s.primary, ...s.replicas]));
  try {
    await new Promise((r) => setTimeout(r, 2500));
    for (let k = 0; k < 1; k++) { const t = Date.now(); await formCluster({ shards, username: c.internalUser, password: c.internalPassword, log: (m) => console.log(`  +${Date.now() - t} ${m}`) }); console.log('warm formCluster', Date.now() - t, 'ms'); }
  } finally { await fleet.stop(); }
})();
