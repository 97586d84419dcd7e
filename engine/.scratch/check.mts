import { Redis } from 'ioredis';
const r = new Redis({ host: '127.0.5.9', port: 7190, username: 'strata-internal', password: 'internalpw123' });
const cmds: string[][] = [
  ['config','get','x'],['config','set','x','y'],['shutdown'],['debug','sleep','0'],['module','list'],['acl','setuser','x'],['acl','whoami'],['acl','list'],
  ['cluster','addslots','1'],['cluster','addslotsrange','1','2'],['cluster','reset'],['cluster','failover'],['cluster','meet','1.1.1.1','1'],['cluster','forget','x'],['cluster','replicate','x'],['cluster','set-config-epoch','1'],['cluster','setslot','1','stable'],['cluster','saveconfig'],['cluster','delslots','1'],['cluster','bumpepoch'],['cluster','flushslots'],['cluster','count-failure-reports','x'],['cluster','links'],['cluster','replicas','x'],
  ['info'],['cluster','info'],['cluster','nodes'],['cluster','slots'],['cluster','shards'],['cluster','myid'],['cluster','keyslot','a'],['cluster','countkeysinslot','1'],['cluster','getkeysinslot','1','1'],
  ['keys','*'],['flushdb'],['flushall'],['sort','x'],['latency','histogram'],['latency','reset'],['latency','latest'],['slowlog','get'],['slowlog','reset'],['client','setname','x'],['client','getname'],['client','id'],['client','info'],['client','kill','id','1'],['client','list'],['client','no-evict','on'],['client','pause','1'],['client','tracking','on'],
  ['readonly'],['readwrite'],['command'],['command','docs'],['command','count'],['command','info','get'],['command','getkeys','get','a'],['hello'],['auth','a','b'],['ping'],['select','0'],['get','a'],['set','a','b'],['eval','return 1','0'],['script','load','x'],['function','list'],['function','flush'],['migrate','h','1','k','0','1'],['restore','k','0','x'],['dump','k'],['monitor'],['save'],['bgsave'],['bgrewriteaof'],['lastsave'],['replicaof','no','one'],['failover'],['swapdb','0','1'],['object','encoding','k'],['memory','usage','k'],['memory','doctor'],['dbsize'],['scan','0'],['wait','0','0'],['publish','c','m'],['subscribe','c'],['pubsub','channels'],['role'],['time'],['echo','x'],['quit'],['reset'],['psync','x','1'],['sync'],['replconf','x'],['asking'],['type','k'],['unlink','k'],['multi'],['exec'],['watch','k'],
];
for (const c of cmds) {
  try { const res = await r.call('acl', 'dryrun', 'customer', ...c); console.log((res === 'OK' ? 'ALLOW' : 'DENY ') + ' ' + c.slice(0,2).join(' ') + (res === 'OK' ? '' : '  ' + String(res).slice(0,80))); }
  catch (e) { console.log('ERR   ' + c.slice(0,2).join(' ') + ' ' + (e as Error).message.slice(0,100)); }
}
console.log(await r.call('acl','list'));
const c = new Redis({ host: '127.0.5.9', port: 7190, username: 'customer', password: 'cust"pa ss\\w\nrd' });
console.log('customer auth', await c.ping());
try { await new Redis({ host: '127.0.5.9', port: 7190, retryStrategy: () => null, lazyConnect: true }).call('ping'); } catch (e) { console.log('noauth', (e as Error).message); }
try { const d = new Redis({ host: '127.0.5.9', port: 7190, lazyConnect: true, retryStrategy: () => null }); await d.connect(); console.log(await d.call('auth','default','')); } catch (e) { console.log('default auth:', (e as Error).message); }
process.exit(0);
