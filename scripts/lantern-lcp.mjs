// What Lighthouse's simulated LCP of one run waited for: the requests and main-thread tasks of the
// estimate's graph, each with its simulated start and end on the emulated phone.
//
//   npm run bench -- --no-build --lighthouse-only --save-traces
//   node scripts/lantern-lcp.mjs .bench/lighthouse/site-mobile-simulate-1.json
//
// The bench's simulated LCP comes from Lantern, which rebuilds the page's load from one
// unthrottled trace; the report holds only its result. This recomputes it from the trace and the
// network log that `--save-traces` keeps beside the report (<report>-0.trace.json and
// <report>-0.devtoolslog.json), with the report's own settings, and lists the nodes of the
// optimistic and the pessimistic graph (the estimate is their mean) in the order they end. A
// network row is a request (size as transferred); a CPU row a main-thread task, with its observed
// duration, which the simulation multiplies by the CPU slowdown.
// https://github.com/GoogleChrome/lighthouse/blob/main/docs/throttling.md
//
// It imports Lighthouse's internal module for the metric (`core/computed/metrics/…`), which a
// Lighthouse upgrade may move: a diagnostic, not part of the bench's verdict.
import { existsSync, readFileSync } from 'node:fs'

import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js'

const report = process.argv[2]
if (!report || !report.endsWith('.json')) {
  console.error('Usage: node scripts/lantern-lcp.mjs <Lighthouse report .json>')
  process.exit(2)
}
const stem = report.slice(0, -'.json'.length)
const tracePath = `${stem}-0.trace.json`
const devtoolsLogPath = `${stem}-0.devtoolslog.json`
if (!existsSync(tracePath) || !existsSync(devtoolsLogPath)) {
  console.error(
    `No ${tracePath} or ${devtoolsLogPath}: run the bench with --save-traces (simulated runs only).`,
  )
  process.exit(2)
}

const lhr = JSON.parse(readFileSync(report, 'utf8'))
if (lhr.configSettings?.throttlingMethod !== 'simulate') {
  console.error(`${report} is not a simulated run; only those have a Lantern estimate.`)
  process.exit(2)
}
const settings = lhr.configSettings
const result = await LanternLargestContentfulPaint.request(
  {
    trace: JSON.parse(readFileSync(tracePath, 'utf8')),
    devtoolsLog: JSON.parse(readFileSync(devtoolsLogPath, 'utf8')),
    gatherContext: { gatherMode: 'navigation' },
    settings,
    simulator: null,
    URL: {
      requestedUrl: lhr.requestedUrl,
      mainDocumentUrl: lhr.mainDocumentUrl ?? lhr.finalUrl,
      finalDisplayedUrl: lhr.finalDisplayedUrl,
    },
    SourceMaps: [],
  },
  { computedCache: new Map(), settings },
)

const observed = lhr.audits.metrics?.details?.items?.[0] ?? {}
const reported = lhr.audits['largest-contentful-paint'].numericValue
console.log(
  `${report}: simulated LCP ${Math.round(result.timing)} ms (report: ${Math.round(reported)} ms), ` +
    `optimistic ${Math.round(result.optimisticEstimate.timeInMs)} ms, ` +
    `pessimistic ${Math.round(result.pessimisticEstimate.timeInMs)} ms; ` +
    `observed unthrottled: first paint ${observed.observedFirstContentfulPaint} ms, ` +
    `LCP ${observed.observedLargestContentfulPaint} ms; CPU slowdown ` +
    `${settings.throttling.cpuSlowdownMultiplier}×, RTT ${settings.throttling.rttMs} ms`,
)

const TASK_EVENTS = new Set(['ParseHTML', 'EvaluateScript', 'UpdateLayoutTree', 'Layout', 'Paint'])
/** @param {any} node */
function describe(node) {
  if (node.type === 'network') {
    const url = new URL(node.request.url)
    return `request  ${url.pathname}${url.search}`.slice(0, 90) + `  ${node.request.transferSize} B`
  }
  const counts = new Map()
  for (const event of node.childEvents) {
    if (!TASK_EVENTS.has(event.name)) continue
    const script = event.args?.data?.url ? ` ${new URL(event.args.data.url).pathname}` : ''
    const key = event.name === 'EvaluateScript' ? `${event.name}${script}` : event.name
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  const what = [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ')
  return `task     ${(node.duration / 1000).toFixed(1)} ms observed${what ? `: ${what}` : ''}`
}

for (const [label, estimate] of [
  ['optimistic', result.optimisticEstimate],
  ['pessimistic', result.pessimisticEstimate],
]) {
  console.log(`\n${label} (${Math.round(estimate.timeInMs)} ms), start–end on the emulated phone:`)
  const rows = [...estimate.nodeTimings].sort(([, a], [, b]) => a.endTime - b.endTime)
  for (const [node, timing] of rows) {
    const span = `${Math.round(timing.startTime)}–${Math.round(timing.endTime)} ms`
    console.log(`  ${span.padStart(14)}  ${describe(node)}`)
  }
}
