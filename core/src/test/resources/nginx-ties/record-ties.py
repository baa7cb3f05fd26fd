#!/usr/bin/env python3
"""Records how a real nginx breaks ties between equal consistent-hash points (the trace in this directory).

Finds loopback servers 127.0.0.1..39 : 23100..23199 whose nginx points collide (CRC-32 of
"host\\0port" chained with the previous point, 160 points each), puts every server of a collision in one
upstream (`hash $request_uri consistent`) in a shuffled order A and in the reverse order B, picks 3 URIs
landing on each tied point plus 60 anywhere, and asks a local nginx for each through both orders.
Writes servers-A.txt, servers-B.txt (upstream order, one per line) and trace-A.csv, trace-B.csv
(`$request_uri,$upstream_addr` as nginx logged them) into the directory given (default: here).

Loopback only: every listen and upstream address is 127.0.0.x. Needs python3 and nginx on the PATH.
    python3 record-ties.py [OUTDIR]
"""
import bisect, json, os, random, struct, subprocess, sys, tempfile, time, urllib.request, zlib

ROUTER_PORTS = {"A": 23010, "B": 23011}


def points(host, port, n=160):
    base = (host + "\0" + str(port)).encode()
    prev, out = 0, []
    for _ in range(n):
        prev = zlib.crc32(base + struct.pack("<I", prev)) & 0xFFFFFFFF
        out.append(prev)
    return out


def colliding_servers():
    seen, servers, ties = {}, set(), set()
    for a in range(1, 40):
        for port in range(23100, 23200):
            server = f"127.0.0.{a}:{port}"
            for h in points(f"127.0.0.{a}", port):
                other = seen.setdefault(h, server)
                if other != server:
                    servers.update((server, other))
                    ties.add(h)
    return sorted(servers), sorted(ties)


def keys_on(ties, servers):
    every = sorted({h for s in servers for h in points(*split(s))})
    keys = []
    for n, t in enumerate(ties):
        i = every.index(t)
        prev = every[i - 1] if i > 0 else every[-1] - 2**32
        k = 0
        while sum(1 for x in keys if x.startswith(f"/t{n}/")) < 3:
            uri = f"/t{n}/{k}"
            if prev < (zlib.crc32(uri.encode()) & 0xFFFFFFFF) <= t:
                keys.append(uri)
            k += 1
    return keys + [f"/any/{i}" for i in range(60)]


def split(server):
    host, port = server.rsplit(":", 1)
    return host, int(port)


def config(work, orders, servers):
    tmp = os.path.join(work, "tmp")
    lines = ["worker_processes 1;", f"pid {work}/nginx.pid;", f"error_log {work}/error.log;",
             "events { worker_connections 512; }", "http {", "  access_log off;",
             f"  client_body_temp_path {tmp}; proxy_temp_path {tmp}; fastcgi_temp_path {tmp}; uwsgi_temp_path {tmp}; scgi_temp_path {tmp};",
             "  log_format trace '$request_uri,$upstream_addr';"]
    for label, order in orders.items():
        lines.append(f"  upstream order{label} {{ hash $request_uri consistent;")
        lines += [f"    server {s};" for s in order]
        lines.append("  }")
        lines.append(f"  server {{ listen 127.0.0.1:{ROUTER_PORTS[label]}; access_log {work}/trace-{label}.csv trace;"
                     f" location / {{ proxy_pass http://order{label}; }} }}")
    lines += [f"  server {{ listen {s}; location / {{ return 200 '{s}'; }} }}" for s in servers]
    return "\n".join(lines + ["}"]) + "\n"


def main():
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
    servers, ties = colliding_servers()
    order = servers[:]
    random.Random(7).shuffle(order)
    orders = {"A": order, "B": order[::-1]}
    keys = keys_on(ties, servers)
    work = tempfile.mkdtemp(prefix="nginx-ties-")
    os.makedirs(os.path.join(work, "tmp"))
    with open(os.path.join(work, "nginx.conf"), "w") as f:
        f.write(config(work, orders, servers))
    subprocess.run(["nginx", "-c", f"{work}/nginx.conf", "-p", work], check=True)
    try:
        time.sleep(1)
        for label in orders:
            for k in keys:
                urllib.request.urlopen(f"http://127.0.0.1:{ROUTER_PORTS[label]}{k}").read()
    finally:
        subprocess.run(["nginx", "-c", f"{work}/nginx.conf", "-p", work, "-s", "quit"], check=True)
        time.sleep(1)
    for label, o in orders.items():
        with open(os.path.join(out, f"servers-{label}.txt"), "w") as f:
            f.write("\n".join(o) + "\n")
        with open(os.path.join(work, f"trace-{label}.csv")) as src, open(os.path.join(out, f"trace-{label}.csv"), "w") as dst:
            dst.write(src.read())
    print(f"{len(servers)} servers, {len(ties)} tied points, {len(keys)} URIs through each order -> {out}")


if __name__ == "__main__":
    main()
