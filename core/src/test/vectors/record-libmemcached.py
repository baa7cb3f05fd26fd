#!/usr/bin/env python3
"""Records libmemcached's answers for the ketama-family vectors (see record-libmemcached.sh)."""
import gzip
import os
import subprocess
import sys

import collide

route, eject, keys_file, out = sys.argv[1:5]
FAILOVER_KEYS = 1000

def shared_hosts(style):
    """Two hosts (port 11211) that make one point in this style's continuum (their point 0)."""
    if style == "ketama":
        return collide.search(collide.hosts("h"), lambda h: [collide.one_at_a_time(h + "-0")])
    if style == "ketama-md5":
        return collide.search(collide.hosts("h"), lambda h: [collide.md5_word0(h + "-0")])
    if style == "spymemcached":
        return collide.search(collide.hosts("h"), lambda h: [collide.md5_word0("/" + h + ":11211-0")])
    return collide.search(collide.hosts("h"), lambda h: collide.md5_words(h + "-0"))

def configs(style):
    a, b = shared_hosts(style)
    return [
        ("equal3", ["127.0.0.1:11211:1", "127.0.0.2:11211:1", "127.0.0.3:11211:1"]),
        ("unequal-ports", ["127.0.0.1:11211:1", "127.0.0.1:11212:2", "127.0.0.2:22122:3",
                           "10.0.0.7:11211:1", "cache-b.example:30000:5"]),
        ("equal25", ["10.0.0.%d:11211:1" % i for i in range(1, 26)]),
        ("ports25", ["127.0.0.1:%d:1" % (20000 + i) for i in range(25)]),
        ("unequal25", ["10.1.0.%d:%d:%d" % (i, 11211 if i % 2 else 11311, 1 + i % 4) for i in range(1, 26)]),
        ("shared", [a + ":11211:1", "127.0.0.9:11211:1", b + ":11211:1", "127.0.0.10:11300:1"]),
        ("shared-weighted", [a + ":11211:2", "127.0.0.9:11211:1", b + ":11211:3"]),
        ("one", ["127.0.0.1:11211:1"]),
    ]

# loopback servers where nothing listens: their failover order comes from real auto-ejection
EJECT_CONFIGS = [
    ("eject-unequal3", ["127.0.1.1:11211:1", "127.0.1.2:11211:1", "127.0.1.3:11311:2"]),
    ("eject-unequal5", ["127.0.1.1:11211:1", "127.0.1.2:11411:2", "127.0.1.3:11211:1", "127.0.1.4:11211:3", "127.0.1.5:11511:1"]),
    ("eject-equal4", ["127.0.1.%d:%d:1" % (i, 11211 if i % 2 else 11611) for i in range(1, 5)]),
]

with gzip.open(out, "wt", encoding="utf-8") as w:
    w.write("# libmemcached %s, recorded by core/src/test/vectors/record-libmemcached.sh\n"
            % subprocess.run(["pkg-config", "--modversion", "libmemcached"], capture_output=True, text=True).stdout.strip())
    for style in ["weighted", "ketama", "ketama-md5", "spymemcached"]:
        for name, servers in configs(style):
            w.write("config %s %s\n" % (style, name))
            for s in servers:
                w.write("server %s\n" % s)
            res = subprocess.run([route, style, keys_file, str(FAILOVER_KEYS)] + servers,
                                 capture_output=True, text=True, check=True)
            w.write(res.stdout)
            w.write("end\n")
        for name, servers in EJECT_CONFIGS:
            w.write("config %s %s\n" % (style, name))
            for s in servers:
                w.write("server %s\n" % s)
            res = subprocess.run([route, style, keys_file, "0"] + servers, capture_output=True, text=True, check=True)
            w.write(res.stdout)
            res = subprocess.run([eject, style, keys_file, str(FAILOVER_KEYS)] + servers,
                                 capture_output=True, text=True, check=True, timeout=600)
            w.write(res.stdout)
            w.write("end\n")
