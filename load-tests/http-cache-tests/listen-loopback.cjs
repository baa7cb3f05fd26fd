// Preload (node -r) for the cache-tests suite's server: a server that is given a port but no host
// listens on 127.0.0.1 instead of every interface. Unix sockets and explicit hosts are left alone.
//   node -r ./listen-loopback.cjs test-engine/server/server.mjs
'use strict'
const net = require('net')

const HOST = '127.0.0.1'
const original = net.Server.prototype.listen

function isPort (value) {
  return typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))
}

net.Server.prototype.listen = function (...args) {
  const first = args[0]
  if (args.length === 0 || first === undefined || first === null || typeof first === 'function') {
    // listen() / listen(cb): a random port on every interface; make it loopback
    args = [0, HOST, ...args.slice(first === undefined || first === null ? 1 : 0)]
  } else if (isPort(first) && typeof args[1] !== 'string') {
    // listen(port), listen(port, cb), listen(port, backlog, cb)
    args = [first, HOST, ...args.slice(1)]
  } else if (typeof first === 'object' && !(first instanceof net.Server) && first.path === undefined &&
             first.handle === undefined && first.fd === undefined && first.host === undefined) {
    args = [{ ...first, host: HOST }, ...args.slice(1)]
  }
  return original.apply(this, args)
}
