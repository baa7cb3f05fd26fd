#!/usr/bin/env python3
"""Records twemproxy's answers for the ketama-family vectors (see record-twemproxy.sh).

Fake memcached servers on 127.0.0.x (loopback only) answer every `get KEY` with their own
address as the value; one nutcracker process routes each pool; each key of keys.txt is asked for
through each pool, and the answering address names the server twemproxy chose. Failover: in pools
with auto_eject_hosts, a server is made to fail (it stops listening and drops its connections),
a key it owns is asked for until twemproxy ejects it, and every key is asked for again.
"""
import gzip
import os
import socket
import subprocess
import sys
import threading
import time

import collide

nutcracker, keys_file, out, work = sys.argv[1:5]
keys = [k.encode() for k in open(keys_file, encoding="utf-8").read().split("\n")[:-1]]

class Fake:
    def __init__(self, host, port):
        self.addr = (host, port)
        self.text = ("%s:%d" % (host, port)).encode()
        self.dead = False
        self.conns = []
        self.lsock = socket.socket()
        self.lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.lsock.bind(self.addr)
        self.lsock.listen(64)
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while not self.dead:
            try:
                c, _ = self.lsock.accept()
            except OSError:
                return
            self.conns.append(c)
            threading.Thread(target=self.serve, args=(c,), daemon=True).start()

    def serve(self, c):
        buf = b""
        while True:
            try:
                data = c.recv(65536)
            except OSError:
                return
            if not data or self.dead:
                c.close()
                return
            buf += data
            while b"\r\n" in buf:
                line, buf = buf.split(b"\r\n", 1)
                parts = line.split(b" ")
                if parts[0] == b"get":
                    resp = b""
                    for k in parts[1:]:
                        resp += b"VALUE %s 0 %d\r\n%s\r\n" % (k, len(self.text), self.text)
                    c.sendall(resp + b"END\r\n")
                else:
                    c.sendall(b"ERROR\r\n")

    def kill(self):
        self.dead = True
        try:
            self.lsock.shutdown(socket.SHUT_RDWR)  # wakes the accept thread, which then lets go of the port
        except OSError:
            pass
        self.lsock.close()
        for c in self.conns:
            try:
                c.shutdown(socket.SHUT_RDWR)
                c.close()
            except OSError:
                pass

fakes = {}
def fake(host, port):
    if (host, port) not in fakes:
        fakes[(host, port)] = Fake(host, port)
    return fakes[(host, port)]

# two server names whose first digests share a point: the tie case
na, nb = collide.search(collide.hosts("node-"), lambda h: collide.md5_words(h + "-0"))

# name -> (servers as written "host:port:weight [name]", hash_tag or None, ejections)
def pools():
    return [
        ("equal3", ["127.0.0.1:11211:1", "127.0.0.2:11211:1", "127.0.0.3:11211:1"], None, 2),
        ("unequal-ports", ["127.0.0.1:11211:1", "127.0.0.1:11212:2", "127.0.0.2:22122:3",
                           "127.0.0.7:11211:1", "127.0.0.8:30000:5"], None, 2),
        ("equal25", ["127.0.0.%d:11211:1" % i for i in range(1, 26)], None, 2),
        ("ports25", ["127.0.0.1:%d:1" % (20000 + i) for i in range(25)], None, 0),
        ("unequal25", ["127.0.1.%d:%d:%d" % (i, 11211 if i % 2 else 11311, 1 + i % 4) for i in range(1, 26)], None, 2),
        ("named", ["127.0.0.1:11211:1 beta", "127.0.0.2:11211:2 alpha", "127.0.0.3:11400:1 cache-long-name",
                   "127.0.0.4:11211:1 zz", "127.0.0.5:11211:3 %s" % na, "127.0.0.6:11211:1 %s" % nb], None, 2),
        ("shared", ["127.0.0.5:11211:1 %s" % nb, "127.0.0.6:11211:1 %s" % na, "127.0.0.9:11211:1"], None, 1),
        ("hash-tag", ["127.0.0.1:11211:1", "127.0.0.2:11211:2", "127.0.0.3:11212:1", "127.0.0.4:11211:1"], "{}", 0),
    ]

def addr_of(server):
    hp = server.split(" ")[0].split(":")
    return hp[0], int(hp[1])

conf = []
plan = []
port = 22200
for hash_name in ["fnv1a_64", "md5"]:
    for name, servers, tag, ejections in pools():
        port += 1
        conf.append("p%s-%s:\n  listen: 127.0.0.1:%d\n  hash: %s\n  distribution: ketama\n"
                    "  auto_eject_hosts: %s\n  server_failure_limit: 1\n  server_retry_timeout: 3600000\n"
                    "  timeout: 2000\n%s  servers:\n%s"
                    % (hash_name, name, port, hash_name, "true" if ejections else "false",
                       "  hash_tag: \"%s\"\n" % tag if tag else "",
                       "".join("   - %s\n" % s for s in servers)))
        plan.append((hash_name, name, servers, tag, ejections, port))
        for s in servers:
            fake(*addr_of(s))

with open(os.path.join(work, "nutcracker.yml"), "w") as f:
    f.write("".join(conf))
proc = subprocess.Popen([nutcracker, "-c", os.path.join(work, "nutcracker.yml"), "-v", "2",
                         "-s", "22299", "-a", "127.0.0.1"], stderr=open(os.path.join(work, "nc.log"), "w"))
time.sleep(1.0)

def ask(sock, f, key):
    sock.sendall(b"get " + key + b"\r\n")
    data = b""
    while not (data.endswith(b"END\r\n") or data.endswith(b"\r\n") and (data.startswith(b"SERVER_ERROR") or data.startswith(b"ERROR") or data.startswith(b"CLIENT_ERROR"))):
        chunk = f.recv(65536)
        if not chunk:
            raise RuntimeError("twemproxy closed the connection")
        data += chunk
    if data.startswith(b"VALUE"):
        return data.split(b"\r\n")[1].decode()
    return None

def owners(port, servers):
    index = {"%s:%d" % addr_of(s): i for i, s in enumerate(servers)}
    s = socket.create_connection(("127.0.0.1", port))
    result = []
    for k in keys:
        a = ask(s, s, k)
        if a is None:
            raise RuntimeError("no answer for %r on port %d" % (k, port))
        result.append(index[a])
    s.close()
    return result

def lines(values):
    return "".join(("\n" if i % 40 == 0 else " ") + str(v) for i, v in enumerate(values)) + "\n"

try:
    with gzip.open(out, "wt", encoding="utf-8") as w:
        version = subprocess.run([nutcracker, "--version"], capture_output=True, text=True)
        w.write("# %s, recorded by core/src/test/vectors/record-twemproxy.sh\n"
                % (version.stdout + version.stderr).strip().splitlines()[0])
        for hash_name, name, servers, tag, ejections, port in plan:
            w.write("config twemproxy-%s %s\n" % (hash_name, name))
            if tag:
                w.write("hash_tag %s\n" % tag)
            for s in servers:
                w.write("server %s\n" % s)
            first = owners(port, servers)
            w.write("owners" + lines(first))
            ejected = []
            for e in range(ejections):
                # eject the owner of the first key still served by the current ring, in key order
                current = first if not ejected else last
                victim = current[0] if e == 0 else next(o for o in current if o not in ejected and o != current[0])
                fakes[addr_of(servers[victim])].kill()
                sock = socket.create_connection(("127.0.0.1", port))
                probe = keys[current.index(victim)]
                for _ in range(10):
                    if ask(sock, sock, probe) is not None:
                        break
                    time.sleep(0.05)
                sock.close()
                ejected.append(victim)
                last = owners(port, servers)
                assert victim not in last
                w.write("ejected %s\n" % " ".join(map(str, ejected)))
                w.write("owners" + lines(last))
            for v in ejected:
                # back for the next pool that lists it
                f = fakes[addr_of(servers[v])]
                for attempt in range(50):
                    try:
                        fakes[addr_of(servers[v])] = Fake(*f.addr)
                        break
                    except OSError:
                        time.sleep(0.1)
                else:
                    raise RuntimeError("cannot listen on %s:%d again" % f.addr)
            w.write("end\n")
finally:
    proc.terminate()
    proc.wait()
