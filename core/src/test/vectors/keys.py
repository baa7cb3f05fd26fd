#!/usr/bin/env python3
"""Writes the keys every ketama-family vector file answers for, one per line (UTF-8), to stdout.

6,000 keys, deterministic: paths, ids, hex, non-ASCII (2-, 3- and 4-byte UTF-8), and keys with
{}-tags (twemproxy's hash_tag), some of them empty ({}) or unclosed. No spaces or control
characters: memcached's text protocol (and so twemproxy) ends a key at a space.
"""
import hashlib

def keys():
    out = []
    for i in range(6000):
        h = hashlib.md5(str(i).encode()).hexdigest()
        kind = i % 12
        if kind == 0:
            k = "/images/%d.png" % i
        elif kind == 1:
            k = "user:%d" % i
        elif kind == 2:
            k = "sess-" + h[: 8 + i % 24]
        elif kind == 3:
            k = "clé-%d-é" % i
        elif kind == 4:
            k = "ключ:%d" % i
        elif kind == 5:
            k = "键%d值" % i
        elif kind == 6:
            k = "\U0001F511%d" % i
        elif kind == 7:
            k = "{user%d}:cart:%d" % (i % 50, i)
        elif kind == 8:
            k = "cart:{user%d}" % (i % 50)  + ":%d" % i
        elif kind == 9:
            k = "abc{}%d" % i
        elif kind == 10:
            k = "open{%d" % i
        else:
            k = "%s%d" % (h[:3], i)
        out.append(k)
    return out

if __name__ == "__main__":
    import sys
    sys.stdout.write("".join(k + "\n" for k in keys()))
