#!/usr/bin/env python3
"""Birthday searches for two server texts that make one ring point: the shared-point (tie) cases
of the ketama-family vectors. Each function returns two distinct host names (or texts)."""
import hashlib
import struct

def md5_words(text):
    return struct.unpack("<4I", hashlib.md5(text.encode()).digest())

def md5_word0(text):
    return md5_words(text)[0]

def one_at_a_time(text):
    h = 0
    for b in text.encode():
        if b >= 0x80:
            b |= 0xFFFFFF00
        h = (h + b) & 0xFFFFFFFF
        h = (h + (h << 10)) & 0xFFFFFFFF
        h ^= h >> 6
    h = (h + (h << 3)) & 0xFFFFFFFF
    h ^= h >> 11
    return (h + (h << 15)) & 0xFFFFFFFF

def search(candidates, points):
    """First two candidates c, d whose points(c) and points(d) share a value."""
    seen = {}
    for c in candidates:
        for v in points(c):
            other = seen.get(v)
            if other is not None and other != c:
                return other, c
        for v in points(c):
            seen[v] = c
    raise RuntimeError("no collision found")

def hosts(prefix):
    n = 0
    while True:
        yield "%s%d" % (prefix, n)
        n += 1
