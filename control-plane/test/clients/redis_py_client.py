"""Connects to a Strata cluster with nothing but its connection URI, as an
application would, and checks the keys a test wrote: <prefix>:<i> = v<i>.
Usage: python3 redis_py_client.py <uri> <prefix> <count>"""
import sys

from redis.cluster import RedisCluster


def main() -> None:
    uri, prefix, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rc = RedisCluster.from_url(uri, socket_timeout=5)
    present = sum(1 for i in range(count) if rc.get(f"{prefix}:{i}") == f"v{i}".encode())
    rc.set(f"{prefix}:py-written", "yes")
    print(f"present {present}")


if __name__ == "__main__":
    main()
