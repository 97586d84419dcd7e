package strata.ycsb;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;

import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * YCSB 0.17's Redis binding, for a Redis Cluster with an ACL user: the same
 * commands (read: HGETALL, or HMGET of the asked fields; insert/update:
 * HSET of the given fields; delete: DEL), through Jedis's cluster client.
 * Unlike the stock binding it does not maintain the `_indices` sorted set,
 * which pins every insert to one shard (BENCHMARKS.md: leave it out unless a
 * scan workload asks for it); scans are not implemented.
 *
 * Properties: redis.seeds (host:port,...), redis.user, redis.password.
 */
public class RedisClusterClient extends DB {
  private JedisCluster jedis;

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    Set<HostAndPort> seeds = new HashSet<>();
    for (String s : p.getProperty("redis.seeds", "127.0.0.1:6379").split(",")) {
      int i = s.lastIndexOf(':');
      seeds.add(new HostAndPort(s.substring(0, i), Integer.parseInt(s.substring(i + 1))));
    }
    DefaultJedisClientConfig.Builder cfg = DefaultJedisClientConfig.builder().timeoutMillis(5000);
    if (p.getProperty("redis.user") != null) cfg.user(p.getProperty("redis.user"));
    if (p.getProperty("redis.password") != null) cfg.password(p.getProperty("redis.password"));
    jedis = new JedisCluster(seeds, cfg.build());
  }

  @Override
  public void cleanup() throws DBException {
    jedis.close();
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    if (fields == null) {
      Map<String, String> all = jedis.hgetAll(key);
      if (all.isEmpty()) return Status.NOT_FOUND;
      StringByteIterator.putAllAsByteIterators(result, all);
    } else {
      String[] names = fields.toArray(new String[0]);
      List<String> values = jedis.hmget(key, names);
      for (int i = 0; i < names.length; i++) result.put(names[i], new StringByteIterator(values.get(i)));
    }
    return Status.OK;
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    jedis.hset(key, StringByteIterator.getStringMap(values));
    return Status.OK;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    jedis.hset(key, StringByteIterator.getStringMap(values));
    return Status.OK;
  }

  @Override
  public Status delete(String table, String key) {
    return jedis.del(key) == 0 ? Status.ERROR : Status.OK;
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields, Vector<HashMap<String, ByteIterator>> result) {
    return Status.NOT_IMPLEMENTED;
  }
}
