#!/usr/bin/env node
// Summarises a run of the HTTP caching test suite (github.com/http-tests/cache-tests, the suite behind
// cache-tests.fyi) beside the suite's published results of real caches, with the suite's own
// classification (test-engine/lib/results.mjs determineTestResult, dependencies honoured).
//
//   node summarize.mjs [--suite DIR] [--label TEXT] [--outcomes FILE.json] [--csv FILE.csv] RESULTS.json
//   node summarize.mjs [--suite DIR] --published           the published table alone
//   node summarize.mjs [--suite DIR] --diff A.json B.json  tests whose outcome changed from A to B
//
// DIR is the suite's checkout (default: $CACHE_TESTS_DIR). RESULTS.json is what the suite's client
// prints (`npm run --silent cli --base=URL`): { "<test id>": true | ["<error name>", "<message>"] }.
// --diff takes raw results (ours or the suite's results/*.json) or the --outcomes files of this script.
//
// Counting rule (it reproduces the figures of cache-tests.fyi's published results): over the tests that
// are not browser_only, a test counts as passed when its result type is `pass` only (a check test's
// `yes` is not a pass); required = tests whose kind is `required` or unset.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const REVERSE_PROXIES = ['ATS', 'httpd', 'Squid', 'Varnish', 'nginx', 'caddy', 'Fastly', 'HAProxy']
const TYPE_ORDER = ['pass', 'fail', 'optional_fail', 'yes', 'no', 'setup_fail', 'dependency_fail',
  'harness_fail', 'retry', 'untested']
const OUTCOMES_FORMAT = 'ketama-http-cache-tests-outcomes/1'

function usage (message) {
  if (message) console.error(`summarize.mjs: ${message}`)
  console.error('usage: node summarize.mjs [--suite DIR] [--label TEXT] [--outcomes FILE.json] [--csv FILE.csv] RESULTS.json\n' +
    '       node summarize.mjs [--suite DIR] --published\n' +
    '       node summarize.mjs [--suite DIR] --diff A.json B.json\n' +
    'DIR defaults to $CACHE_TESTS_DIR, a clone of https://github.com/http-tests/cache-tests')
  process.exit(2)
}

function parseArgs (argv) {
  const opts = { positional: [] }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const value = () => {
      if (i + 1 >= argv.length) usage(`${arg} needs a value`)
      return argv[++i]
    }
    if (arg === '--suite') opts.suite = value()
    else if (arg === '--label') opts.label = value()
    else if (arg === '--outcomes') opts.outcomes = value()
    else if (arg === '--csv') opts.csv = value()
    else if (arg === '--published') opts.published = true
    else if (arg === '--diff') opts.diff = true
    else if (arg === '-h' || arg === '--help') usage()
    else if (arg.startsWith('--')) usage(`unknown option ${arg}`)
    else opts.positional.push(arg)
  }
  return opts
}

const opts = parseArgs(process.argv.slice(2))
const suiteGiven = opts.suite || process.env.CACHE_TESTS_DIR
if (!suiteGiven) usage('the suite\'s directory is unset (--suite or CACHE_TESTS_DIR); get it with: git clone https://github.com/http-tests/cache-tests')
const suiteDir = path.resolve(suiteGiven)
if (!fs.existsSync(path.join(suiteDir, 'tests', 'index.mjs'))) {
  usage(`${suiteDir} is no checkout of the suite (no tests/index.mjs); get it with: git clone https://github.com/http-tests/cache-tests`)
}
const suiteModule = rel => import(pathToFileURL(path.join(suiteDir, rel)).href)
const suites = (await suiteModule('tests/index.mjs')).default
const { determineTestResult, resultTypes } = await suiteModule('test-engine/lib/results.mjs')
const publishedIndex = (await suiteModule('results/index.mjs')).default

const typeName = new Map(Object.entries(resultTypes).map(([name, value]) => [value, name]))
const tests = []
for (const suite of suites) {
  for (const test of suite.tests) {
    if (test.browser_only === true) continue
    tests.push({ id: test.id, group: suite.id, groupName: suite.name, kind: test.kind || 'required', name: test.name || '', dependsOn: test.depends_on || [] })
  }
}
const kindCount = kind => tests.filter(t => t.kind === kind).length

function suiteCommit () {
  try {
    return execFileSync('git', ['-C', suiteDir, 'log', '-1', '--format=%h %cs'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return 'unknown commit'
  }
}

function readJson (file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (err) {
    console.error(`summarize.mjs: cannot read ${file} as JSON: ${err.message}`)
    process.exit(1)
  }
}

function rawMessage (raw) {
  if (raw === undefined) return 'not run'
  if (raw === true) return ''
  if (Array.isArray(raw)) return `${raw[0]}: ${raw[1]}`
  return JSON.stringify(raw)
}

// per-test outcomes of raw results: { id: { group, kind, result, message } }
function classify (raw) {
  const out = {}
  for (const t of tests) {
    const result = typeName.get(determineTestResult(suites, t.id, raw)) || 'unknown'
    let message = rawMessage(raw[t.id])
    if (result === 'dependency_fail') {
      const deps = t.dependsOn.map(d => `${d} (${typeName.get(determineTestResult(suites, d, raw))})`).join(', ')
      message = `depends on ${deps}${message ? `; itself: ${message}` : '; itself passed'}`
    }
    out[t.id] = { group: t.group, kind: t.kind, result, message }
  }
  return out
}

function outcomesOf (file) {
  const data = readJson(file)
  if (data && data.format === OUTCOMES_FORMAT) return data.tests
  return classify(data)
}

function figures (outcomes) {
  const f = { passed: 0, required: 0, optimal: 0, check: 0 }
  for (const type of TYPE_ORDER) f[type] = 0
  for (const t of tests) {
    const o = outcomes[t.id]
    const result = o ? o.result : 'untested'
    f[result] = (f[result] || 0) + 1
    if (result === 'pass') {
      f.passed++
      if (t.kind === 'required') f.required++
      if (t.kind === 'optimal') f.optimal++
    }
    if (result === 'yes') f.check++
  }
  return f
}

const cell = text => String(text).replace(/\r?\n/g, ' ').replace(/\|/g, '\\|')
const clip = (text, n) => (text.length > n ? `${text.slice(0, n - 1)}…` : text)

function published () {
  return publishedIndex.map(item => {
    const raw = readJson(path.join(suiteDir, 'results', item.file))
    return { ...item, outcomes: classify(raw) }
  })
}

function comparisonTable (columns) {
  const rows = [
    [`passed (of ${tests.length})`, f => f.passed],
    [`required passed (of ${kindCount('required')})`, f => f.required],
    [`optimal passed (of ${kindCount('optimal')})`, f => f.optimal],
    [`check tests answered yes (of ${kindCount('check')}; not counted as passed)`, f => f.check],
    ['required failed', f => f.fail],
    ['optimal failed', f => f.optional_fail],
    ['check tests answered no', f => f.no],
    ['setup failures', f => f.setup_fail],
    ['dependency failures', f => f.dependency_fail],
    ['harness failures (timeouts, aborts)', f => f.harness_fail],
    ['retries seen', f => f.retry],
    ['not run', f => f.untested]
  ]
  const lines = []
  lines.push(`| | ${columns.map(c => c.bold ? `**${cell(c.name)}**` : cell(c.name)).join(' | ')} |`)
  lines.push(`|---|${columns.map(() => '---:').join('|')}|`)
  for (const [label, get] of rows) {
    lines.push(`| ${label} | ${columns.map(c => c.bold ? `**${get(c.figures)}**` : get(c.figures)).join(' | ')} |`)
  }
  return lines
}

function groupTable (ours, proxies) {
  const lines = []
  const header = ['group', 'tests', 'required', ours ? 'passed' : null, ours ? 'required passed' : null,
    ours ? 'setup failures' : null, ours ? 'dependency failures' : null,
    `published passed (${proxies.map(p => p.name).join(' / ')})`].filter(Boolean)
  lines.push(`| ${header.join(' | ')} |`)
  lines.push(`|---|${header.slice(1).map(() => '---:').join('|')}|`)
  for (const suite of suites) {
    const ts = tests.filter(t => t.group === suite.id)
    if (ts.length === 0) continue
    const count = (outcomes, pred) => ts.filter(t => outcomes[t.id] && pred(outcomes[t.id], t)).length
    const row = [`${suite.id} (${cell(suite.name)})`, ts.length, ts.filter(t => t.kind === 'required').length]
    if (ours) {
      row.push(count(ours, o => o.result === 'pass'), count(ours, (o, t) => o.result === 'pass' && t.kind === 'required'),
        count(ours, o => o.result === 'setup_fail'), count(ours, o => o.result === 'dependency_fail'))
    }
    row.push(proxies.map(p => count(p.outcomes, o => o.result === 'pass')).join(' / '))
    lines.push(`| ${row.join(' | ')} |`)
  }
  return lines
}

function publishedLines (all) {
  const proxies = REVERSE_PROXIES.map(name => all.find(p => p.name === name)).filter(Boolean)
  const others = all.filter(p => !proxies.includes(p))
  const lines = []
  lines.push(`published results: the suite's results/*.json (results/index.mjs); versions: ${proxies.map(p => `${p.name} ${p.version}`).join(', ')}`)
  if (others.length) {
    lines.push('')
    lines.push(`browsers and others (not beside us: a browser runs the browser_only tests too and no shared-cache ones): ${others.map(p => {
      const f = figures(p.outcomes)
      return `${p.name} (${p.type}) ${f.passed} passed, ${f.required} required`
    }).join('; ')}`)
  }
  return { proxies, lines }
}

function header (label) {
  return [
    `# HTTP caching tests (cache-tests.fyi suite): ${label}`,
    '',
    `suite: ${suiteDir} at ${suiteCommit()}; ${tests.length} tests that are not browser_only: ` +
      `${kindCount('required')} required, ${kindCount('optimal')} optimal, ${kindCount('check')} check`,
    '',
    'counting: result types of the suite\'s determineTestResult (dependencies honoured); passed = type `pass` only ' +
      '(a check test\'s `yes` is not counted); required = kind `required` or unset. This rule gives the published ' +
      'figures of cache-tests.fyi (e.g. ATS 202 passed, 132 required).'
  ]
}

function writeOutcomes (outcomes, label) {
  if (opts.outcomes) {
    fs.writeFileSync(opts.outcomes, JSON.stringify({
      format: OUTCOMES_FORMAT,
      label,
      suite: suiteCommit(),
      figures: figures(outcomes),
      tests: outcomes
    }, null, 1) + '\n')
  }
  if (opts.csv) {
    const q = text => `"${String(text).replace(/"/g, '""')}"`
    const rows = ['id,group,kind,result,message']
    for (const t of tests) {
      const o = outcomes[t.id]
      rows.push([t.id, t.group, t.kind, o.result, q(o.message)].join(','))
    }
    fs.writeFileSync(opts.csv, rows.join('\n') + '\n')
  }
}

function runReport (file) {
  const raw = readJson(file)
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    console.error(`summarize.mjs: ${file} is no results object ({ "<test id>": true | [name, message] })`)
    process.exit(1)
  }
  const label = opts.label || path.basename(file)
  const ours = classify(raw)
  const unknown = Object.keys(raw).filter(id => !tests.some(t => t.id === id))
  writeOutcomes(ours, label)
  const all = published()
  const { proxies, lines: pubLines } = publishedLines(all)
  const out = header(label)
  out.push('', '## Beside the published reverse proxies and CDN', '')
  out.push(...comparisonTable([{ name: label, figures: figures(ours), bold: true },
    ...proxies.map(p => ({ name: p.name, figures: figures(p.outcomes) }))]))
  out.push('', ...pubLines)
  if (unknown.length) out.push('', `results for ids this suite checkout does not have (ignored): ${unknown.length}`)
  out.push('', '## Per group', '')
  out.push(...groupTable(ours, proxies))

  const required = tests.filter(t => t.kind === 'required' && ours[t.id].result !== 'pass')
  out.push('', `## Required tests that did not pass (${required.length} of ${kindCount('required')})`, '')
  if (required.length) {
    const byType = {}
    for (const t of required) byType[ours[t.id].result] = (byType[ours[t.id].result] || 0) + 1
    out.push(`by result type: ${Object.entries(byType).map(([k, v]) => `${k} ${v}`).join(', ')}`, '')
    out.push('| test | group | result | message | test name |', '|---|---|---|---|---|')
    for (const t of required) {
      out.push(`| \`${t.id}\` | ${t.group} | ${ours[t.id].result} | ${cell(clip(ours[t.id].message, 300))} | ${cell(clip(t.name, 100))} |`)
    }
  }
  const others = tests.filter(t => t.kind !== 'required' && !['pass', 'yes'].includes(ours[t.id].result))
  out.push('', `## Optimal and check tests that did not pass (${others.length} of ${tests.length - kindCount('required')})`, '')
  for (const t of others) {
    out.push(`- \`${t.id}\` (${t.kind}) ${ours[t.id].result}: ${clip(ours[t.id].message, 160).replace(/\r?\n/g, ' ')}`)
  }
  console.log(out.join('\n'))
}

function publishedReport () {
  const all = published()
  const { proxies, lines: pubLines } = publishedLines(all)
  const out = header('published results only')
  out.push('', '## Published reverse proxies and CDN', '')
  out.push(...comparisonTable(proxies.map(p => ({ name: p.name, figures: figures(p.outcomes) }))))
  out.push('', ...pubLines, '', '## Per group', '')
  out.push(...groupTable(null, proxies))
  console.log(out.join('\n'))
}

function diffReport (fileA, fileB) {
  const a = outcomesOf(fileA)
  const b = outcomesOf(fileB)
  const fa = figures(a)
  const fb = figures(b)
  const out = [`# Outcome changes: ${fileA} -> ${fileB}`, '',
    `passed ${fa.passed} -> ${fb.passed} (of ${tests.length}); required passed ${fa.required} -> ${fb.required} (of ${kindCount('required')}); ` +
    `setup failures ${fa.setup_fail} -> ${fb.setup_fail}; dependency failures ${fa.dependency_fail} -> ${fb.dependency_fail}`, '']
  const changed = tests.filter(t => (a[t.id]?.result || 'untested') !== (b[t.id]?.result || 'untested'))
  out.push(`${changed.length} tests changed outcome`, '')
  if (changed.length) {
    out.push('| test | kind | before | after | message after |', '|---|---|---|---|---|')
    for (const t of changed) {
      out.push(`| \`${t.id}\` | ${t.kind} | ${a[t.id]?.result || 'untested'} | ${b[t.id]?.result || 'untested'} | ${cell(clip(b[t.id]?.message || '', 200))} |`)
    }
  }
  console.log(out.join('\n'))
}

if (opts.diff) {
  if (opts.positional.length !== 2) usage('--diff takes two files')
  diffReport(...opts.positional)
} else if (opts.published) {
  if (opts.positional.length !== 0) usage('--published takes no results file')
  publishedReport()
} else {
  if (opts.positional.length !== 1) usage('give one results file (the JSON the suite\'s client prints)')
  runReport(opts.positional[0])
}
