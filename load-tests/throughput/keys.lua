-- wrk script of load-tests/throughput.sh: GET <prefix><key> with keys drawn at random, uniformly.
--
--   wrk ... -s keys.lua URL -- random <prefix> <count>   keys 0 .. count-1, e.g. /cache/k/ 100000
--   wrk ... -s keys.lua URL -- list <prefix> <file>      keys read from a file, one a line
--
-- With WRK_TALLY=1 in the environment it also tallies every answer's status and its X-Ketama-Cache
-- and X-Ketama-Failover headers (slower: wrk then hands each answer to Lua), for the failover run.
-- (wrk decides whether to parse headers from the script as loaded, before init() sees the arguments.)
-- done() prints one "wrk ..." line of key=value pairs that throughput.sh reads.

local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

local keys = nil
local nkeys = 0
local prefix = "/"
local tally = os.getenv("WRK_TALLY") == "1"

function init(args)
  local mode, p, source = args[1], args[2], args[3]
  prefix = p
  math.randomseed(os.time() * 1000 + id)
  if mode == "random" then
    nkeys = tonumber(source)
  elseif mode == "list" then
    keys = {}
    for line in io.lines(source) do
      if #line > 0 then
        keys[#keys + 1] = line
      end
    end
    nkeys = #keys
  else
    error("keys.lua: mode must be 'random' or 'list', was " .. tostring(mode))
  end
  if nkeys == nil or nkeys < 1 then
    error("keys.lua: no keys (" .. tostring(source) .. ")")
  end
  ok, bad, failover, bypass, miss = 0, 0, 0, 0, 0
end

function request()
  local i = math.random(0, nkeys - 1)
  local key = keys and keys[i + 1] or i
  return wrk.format("GET", prefix .. key)
end

local function count_response(status, headers, body)
  if status >= 200 and status < 300 then ok = ok + 1 else bad = bad + 1 end
  local cache = headers["X-Ketama-Cache"] or headers["x-ketama-cache"]
  if cache == "BYPASS" then bypass = bypass + 1 elseif cache == "MISS" then miss = miss + 1 end
  if headers["X-Ketama-Failover"] or headers["x-ketama-failover"] then failover = failover + 1 end
end

if tally then
  response = count_response
end

function done(summary, latency, requests)
  local e = summary.errors
  local line = string.format(
    "wrk requests=%d duration_us=%d p50_us=%d p90_us=%d p99_us=%d max_us=%d connect_errors=%d read_errors=%d write_errors=%d timeouts=%d non2xx=%d",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max, e.connect, e.read, e.write, e.timeout, e.status)
  if tally then
    local t = { ok = 0, bad = 0, failover = 0, bypass = 0, miss = 0 }
    for _, thread in ipairs(threads) do
      for k, _ in pairs(t) do t[k] = t[k] + thread:get(k) end
    end
    line = line .. string.format(" tally_ok=%d tally_bad=%d tally_failover=%d tally_bypass=%d tally_miss=%d",
      t.ok, t.bad, t.failover, t.bypass, t.miss)
  end
  io.write(line .. "\n")
end
