'use strict';
// Records what the hashring npm module (3.2.0) answers, as vectors for HashringVectorsTest.
// Usage: see record-hashring.sh (which installs the module in a temporary directory and runs this).
// Output (stdout): gzip-friendly text, one "case" block per server set; the test regenerates the
// same keys from the same xorshift32 sequence, so only the answers are stored.

const HashRing = require('hashring');
const crypto = require('crypto');

const KEYS = 100000;
const RANGE_KEYS = 20000;
const RANGE_SIZE = 3;

// xorshift32, identical in HashringVectorsTest
function rng(seed) {
  let x = seed >>> 0;
  return function next() {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x;
  };
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789/-_.:ABCXYZ';
const WIDE = ['é', '日本', '\uD83D\uDE00', 'ü'];

function keys(seed, count) {
  const next = rng(seed);
  const out = new Array(count);
  for (let i = 0; i < count; i++) {
    const len = 1 + next() % (next() % 10 === 0 ? 250 : 40);
    let s = '';
    for (let j = 0; j < len; j++) {
      const r = next();
      s += r % 40 === 0 ? WIDE[(r >>> 8) % WIDE.length] : ALPHABET[(r >>> 8) % ALPHABET.length];
    }
    out[i] = s;
  }
  return out;
}

function servers(seed, n, maxWeight) {
  const next = rng(seed);
  const out = [];
  const seen = new Set();
  while (out.length < n) {
    const kind = next() % 10;
    let s;
    if (kind < 6) s = '10.' + (next() % 256) + '.' + (next() % 256) + '.' + (1 + next() % 254) + ':' + (next() % 2 ? 11211 : 1024 + next() % 60000);
    else if (kind < 8) s = 'cache-' + out.length + '.example:11211';
    else s = '[2001:db8::' + (1 + next() % 65534).toString(16) + ']:11211';
    if (seen.has(s)) continue;
    seen.add(s);
    out.push([s, 1 + next() % maxWeight]);
  }
  return out;
}

const CASES = [];
for (const n of [1, 2, 3, 7, 10, 28, 100]) {
  CASES.push({ name: n + ' servers', servers: servers(n, n, 1), weighted: false });
}
CASES.push({ name: '5 servers, weights 1..5', servers: servers(500, 5, 5), weighted: true });
CASES.push({ name: '25 servers, weights 1..10', servers: servers(2500, 25, 10), weighted: true });
CASES.push({ name: '12 servers, weights 1..100', servers: servers(1200, 12, 100), weighted: true });
CASES.push({ name: '2000 servers', servers: servers(2000, 2000, 1), weighted: false });

const lines = [];
lines.push('# hashring ' + require('hashring/package.json').version + ' on node ' + process.version);
lines.push('# keys ' + KEYS + ' ranges ' + RANGE_KEYS + ' x ' + RANGE_SIZE);
const allKeys = keys(13, KEYS);
for (const c of CASES) {
  let ring;
  if (c.weighted) {
    const spec = {};
    for (const [s, w] of c.servers) spec[s] = w;
    ring = new HashRing(spec);
  } else {
    ring = new HashRing(c.servers.map(([s]) => s));
  }
  const index = new Map(c.servers.map(([s], i) => [s, i]));
  lines.push('case ' + c.name);
  lines.push('servers ' + JSON.stringify(c.servers.map(([s, w]) => c.weighted ? [s, w] : [s, 1])));
  // the continuum: each distinct point value with the server that owns it (the first in ring order),
  // and the full list of servers at values several servers made
  const distinct = crypto.createHash('sha256');
  let count = 0;
  const collisions = [];
  for (let i = 0; i < ring.ring.length; i++) {
    const v = ring.ring[i].value;
    if (i > 0 && ring.ring[i - 1].value === v) continue;
    const at = [index.get(ring.ring[i].server)];
    for (let j = i + 1; j < ring.ring.length && ring.ring[j].value === v; j++) at.push(index.get(ring.ring[j].server));
    if (at.length > 1) collisions.push(v + ' ' + at.join(' '));
    distinct.update(v + ' ' + at[0] + '\n');
    count++;
  }
  lines.push('points ' + ring.ring.length + ' ' + count + ' ' + distinct.digest('hex'));
  for (const col of collisions) lines.push('equal ' + col);
  // lookups by hash at both ends, at the first points and at every equal point, and one off each
  const hashes = [0, 1, 0xfffffffe, 0xffffffff];
  for (let i = 0; i < Math.min(ring.ring.length, 3000); i++) hashes.push(ring.ring[i].value);
  for (const col of collisions) hashes.push(+col.split(' ')[0]);
  const probes = [];
  for (const h of hashes) for (const d of [-1, 0, 1]) probes.push((h + d + 4294967296) % 4294967296);
  lines.push('hashes ' + probes.map((h) => h + ':' + index.get(ring.ring[ring.find(h)].server)).join(','));
  lines.push('owners ' + allKeys.map((k) => index.get(ring.get(k))).join(','));
  lines.push('ranges ' + allKeys.slice(0, RANGE_KEYS).map((k) => ring.range(k, RANGE_SIZE).map((s) => index.get(s)).join(' ')).join(','));
}
process.stdout.write(lines.join('\n') + '\n');
