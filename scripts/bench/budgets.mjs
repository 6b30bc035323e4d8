// What `npm run bench` measures and how it judges it: the public page kinds, the budgets, and the
// table built from a run's results. No I/O here, so tests/unit/bench-budgets.test.ts can hold the
// judgement to the decisions of issues 29 and 67 (docs/speed.md):
//
//   - judged under applied throttling (DevTools throttling: the page really loads over a slow 4G
//     link on the CPU of the target phone), medians of at least MIN_RUNS interleaved runs. Against
//     the page's own control (first-screen.mjs: the same page cut before its first lazy block, no
//     script), what a first screen's design may cost but nothing after it may: the main thread's
//     style and layout ≤ 1.5 × the control's, LCP ≤ the control's + 60 ms. Against the floor,
//     what no design excuses: TBT ≤ floor + 50 ms, performance ≥ floor − 2 (the only budget on
//     FCP and Speed Index), CLS 0;
//   - also judged: desktop performance 100 and CLS 0, accessibility / best practices / SEO 100,
//     first-load JS ≤ floor + 10 KiB, the page-weight budgets of `npm test`;
//   - reported, not judged: every figure under simulated throttling (Lighthouse's Lantern model,
//     what PageSpeed Insights shows), because its misses come from the model
//     (GoogleChrome/lighthouse#17163) and its run-to-run spread, not from the page.
//
// Every public page kind gets the same budgets. The list is one constant, PAGES: a kind whose
// path does not answer 200 fails the bench (bench.mjs), it is never skipped.

import { formatKiB } from '../lib/first-load-js.mjs'
import { controlName } from './first-screen.mjs'

/**
 * The public page kinds, each by one path of the bundled dataset. `id` names it in results.json.
 * A page with an experiment (issue 51) is measured once per variant, each forced with the header
 * the front sends (VARIANT_HEADER): the control too, since Lighthouse's own visitor hash would
 * pick either. Both are judged like every page, so a variant stays inside the same budgets.
 * @typedef {{ id: string, kind: string, path: string, experiment?: string, variant?: string }} BenchPage
 * @type {readonly BenchPage[]}
 */
export const PAGES = Object.freeze([
  { id: 'home', kind: 'home', path: '/' },
  {
    id: 'campaign',
    kind: 'campaign page with an experiment, its control',
    path: '/p/onibus-rodoviarios',
    experiment: 'titulo-onibus',
    variant: 'controle',
  },
  {
    id: 'campaign-tempo-real',
    kind: 'campaign page with an experiment, a variant',
    path: '/p/onibus-rodoviarios',
    experiment: 'titulo-onibus',
    variant: 'tempo-real',
  },
  { id: 'listing', kind: 'article listing', path: '/conteudos' },
  { id: 'article', kind: 'article', path: '/conteudos/como-o-celular-detecta-fadiga' },
  { id: 'material', kind: 'material', path: '/materiais/checklist-camera-cabine-lgpd' },
])

/** lib/experiments/serve.ts's VARIANT_HEADER and variantPath, and the control's key (assign.ts). */
const VARIANT_HEADER = 'x-vigia-variant'
const VARIANT_PREFIX = '/variante'
const CONTROL = 'controle'

/**
 * How a page is named in the table and the logs: its path, and the variant when one is forced,
 * so that two variants of one path never share a row.
 * @param {BenchPage} page
 */
export function pageName(page) {
  return page.variant ? `${page.path} [${page.experiment}/${page.variant}]` : page.path
}

/**
 * The request headers that serve this page: the forced variant, if any.
 * @param {BenchPage} page
 * @returns {Record<string, string>}
 */
export function pageHeaders(page) {
  return page.variant ? { [VARIANT_HEADER]: page.variant } : {}
}

/**
 * Lighthouse CLI's arguments that send these headers with every request of the page.
 * @param {Record<string, string>} headers
 */
export function extraHeadersArgs(headers) {
  return Object.keys(headers).length > 0 ? ['--extra-headers', JSON.stringify(headers)] : []
}

/**
 * The path the app route that renders the page answers to: a variant other than the control is a
 * rewrite to its own prerendered route (proxy.ts), whose client manifest lists what it loads.
 * @param {BenchPage} page
 */
export function routePathOf(page) {
  if (!page.variant || page.variant === CONTROL) return page.path
  return `${VARIANT_PREFIX}/${page.experiment}/${page.variant}${page.path === '/' ? '' : page.path}`
}

/**
 * The control of one measured page (first-screen.mjs): the same path with the same headers, a
 * forced variant's included, from the proxy that cuts the same build's pages.
 * @param {string} name the page's Lighthouse name (a page id, or a --variant's)
 * @param {BenchPage} page
 * @param {string} controlOrigin the origin of that build's control proxy
 * @param {boolean | null} lazyBlock whether the served page has a lazy block (null: not known)
 */
export function controlOf(name, page, controlOrigin, lazyBlock = null) {
  return {
    name: controlName(name),
    url: new URL(page.path, controlOrigin).href,
    headers: pageHeaders(page),
    lazyBlock,
  }
}

/**
 * Why the served HTML is not the page asked for, or null: a forced variant must be named by the
 * page's `vigia:variant` meta, or the bench would measure another page silently.
 * @param {BenchPage} page
 * @param {string} html
 * @returns {string | null}
 */
export function servedVariantProblem(page, html) {
  if (!page.variant) return null
  const expected = `${page.experiment}/${page.variant}`
  const meta = (html.match(/<meta\b[^>]*>/g) ?? []).find((tag) =>
    /\bname="vigia:variant"/.test(tag),
  )
  const served = meta ? /\bcontent="([^"]*)"/.exec(meta)?.[1] : undefined
  if (served === expected) return null
  return (
    `${page.path} with ${VARIANT_HEADER}: ${page.variant} served ` +
    (served ? `variant ${served}` : 'no vigia:variant meta') +
    `, not ${expected}: the experiment no longer runs there, or the variant is gone. ` +
    'Change its entries in PAGES (scripts/bench/budgets.mjs).'
  )
}

/**
 * One line per experiment page measured with more than one variant: the applied-throttling
 * medians of each variant side by side (judged above, each against its control and the floor).
 * @param {Record<string, any>} applied lighthouse.mobile.devtools of results.json
 * @param {readonly BenchPage[]} pages
 */
export function experimentComparisons(applied, pages) {
  /** @type {Map<string, BenchPage[]>} */
  const byPage = new Map()
  for (const page of pages) {
    if (!page.variant || !applied[page.id]) continue
    const key = `${page.experiment} on ${page.path}`
    byPage.set(key, [...(byPage.get(key) ?? []), page])
  }
  return [...byPage]
    .filter(([, variants]) => variants.length > 1)
    .map(([key, variants]) => {
      const m = variants.map((page) => applied[page.id].median)
      const each = (/** @type {(s: any) => string} */ format) => m.map(format).join(' vs ')
      return (
        `Experiment ${key}, ${variants.map((page) => page.variant).join(' vs ')}: ` +
        `performance ${each((s) => String(s.scores.performance))}, ` +
        `LCP ${each((s) => ms(s.lcpMs))}, TBT ${each((s) => ms(s.tbtMs))}, ` +
        `style & layout ${each((s) => (typeof s.styleLayoutMs === 'number' ? ms(s.styleLayoutMs) : 'not measured'))}, ` +
        `CLS ${each((s) => s.cls.toFixed(3))}`
      )
    })
}

/** Fewer interleaved runs per page and mode than this leave the median to chance. */
export const MIN_RUNS = 7

/** Lighthouse loads that measure the host's benchmarkIndex before the judged runs. */
export const CALIBRATION_LOADS = 3

/**
 * The budgets. Speed is judged against the page's control (`control + n`, `n × control`) or the
 * floor (`floor + n`), both measured in the same rounds; the rest are properties of the page itself
 * that do not depend on the machine.
 */
export const BUDGETS = Object.freeze({
  /** First-load JS may exceed the floor's by this much (gzip); the home is at about +4.7 KiB. */
  firstLoadOverFloorBytes: 10 * 1024,
  /** The calibrated phone under applied throttling (medians, interleaved with control and floor). */
  mobile: {
    /** Performance score at most this much below the floor's. */
    performanceBelowFloor: 2,
    lcpOverControlMs: 60,
    tbtOverFloorMs: 50,
    /** Lighthouse's main-thread breakdown, group `styleLayout`: at most this many times the control's. */
    styleLayoutOverControlFactor: 1.5,
    /** Absolute: a stable page does not move, whatever the machine. */
    cls: 0,
  },
  desktop: { performance: 100, cls: 0 },
  /** Lighthouse's other categories, mobile and desktop. */
  otherCategories: 100,
})

/**
 * The order of one round of applied-throttling runs: each measured page, then its control, and the
 * floor last, so that whatever the machine does meanwhile weighs on a page and its control alike.
 * @param {readonly string[]} names the measured pages' Lighthouse names (page ids, variants)
 */
export function appliedRound(names) {
  return [...names.flatMap((name) => [name, controlName(name)]), 'floor']
}

/**
 * How many Lighthouse loads a run makes: the calibration, then per round every page and the floor
 * in the simulated and desktop modes, and under applied throttling each page's control too.
 * @param {number} measured pages measured (page kinds, each variant, each --variant's page)
 * @param {number} runs rounds (--runs)
 */
export function lighthouseLoads(measured, runs) {
  const applied = (2 * measured + 1) * runs
  const simulated = (measured + 1) * runs
  const desktop = (measured + 1) * runs
  return {
    calibration: CALIBRATION_LOADS,
    applied,
    simulated,
    desktop,
    total: CALIBRATION_LOADS + applied + simulated + desktop,
  }
}

/** Lighthouse's names of the two ways to throttle, and how the table calls them. */
export const METHODS = Object.freeze({ simulate: 'simulated', devtools: 'applied' })

const PAGE_WEIGHT_MEASURES = /** @type {const} */ ([
  ['elements', 'Elements as served', String],
  ['rscPayloadBytes', 'Inline RSC payload', kib],
  ['htmlBytes', 'HTML (uncompressed)', kib],
  ['stylesheetBytes', 'Inlined stylesheet', kib],
])

/** @param {number} bytes */
function kib(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`
}
/** @param {number} value */
const ms = (value) => `${Math.round(value)} ms`
/** @param {number} value */
const signedMs = (value) => `${value >= 0 ? '+' : '−'}${Math.round(Math.abs(value))} ms`
/** @param {number} value */
const signed = (value) => `${value >= 0 ? '+' : '−'}${Math.abs(value)}`
/** A layout shift as judged: never printed as 0.000 when it is not 0. */
const clsText = (/** @type {number} */ value) =>
  value > 0 && value < 0.0005 ? value.toPrecision(1) : value.toFixed(3)
/** @param {number} limit */
const clsBudget = (limit) => (limit === 0 ? '= 0' : `≤ ${limit}`)
/** @param {{ styleLayoutMs?: number | null } | undefined} s */
const styleLayoutText = (s) =>
  typeof s?.styleLayoutMs === 'number' ? ms(s.styleLayoutMs) : 'not measured'

/**
 * @typedef {{ name: string, site: string, control: string, floor: string, difference: string,
 *   budget: string, pass: boolean | null }} Row  `control`: the page's control's figure, where a
 *   budget or the reader needs it. `pass` null: reported, not judged.
 */

/**
 * The table of one run: every measure, its budget and whether it passed.
 * @param {{
 *   results: any,
 *   pages: readonly BenchPage[],
 *   variants?: { name: string, distDir: string, path?: string }[],
 *   budgets?: typeof BUDGETS,
 *   pageWeightBudget: Record<string, number>,
 *   frontMinRatio?: number,
 * }} input  `results` as bench.mjs writes it to .bench/results.json; `pages` the kinds measured.
 * @returns {Row[]}
 */
export function judge({
  results,
  pages,
  variants = [],
  budgets = BUDGETS,
  pageWeightBudget,
  frontMinRatio = 5,
}) {
  /** @type {Row[]} */
  const rows = []
  /** @param {Partial<Row> & { name: string, site: string }} r */
  const row = ({
    name,
    site,
    control = '',
    floor = '',
    difference = '',
    budget = '',
    pass = null,
  }) => rows.push({ name, site, control, floor, difference, budget, pass })

  /** @param {string} name a Lighthouse page name: a page id, `floor` or a variant */
  const label = (name) => {
    const page = pages.find((p) => p.id === name)
    if (page) return pageName(page)
    const variant = variants.find((v) => v.name === name)
    return variant ? `${variant.path ?? '/'} (${variant.distDir})` : name
  }

  const jsFloor = results.firstLoadJs.floor
  for (const page of pages) {
    const js = results.firstLoadJs.pages[page.id]
    row({
      name: `First-load JS of ${pageName(page)} (gzip)`,
      site: `${formatKiB(js.totalBytes)} (framework ${formatKiB(js.frameworkBytes)}, site ${formatKiB(js.siteBytes)})`,
      floor: formatKiB(jsFloor.totalBytes),
      difference: `+${formatKiB(js.totalBytes - jsFloor.totalBytes)}`,
      budget: `≤ floor + ${formatKiB(budgets.firstLoadOverFloorBytes)}`,
      pass: js.totalBytes - jsFloor.totalBytes <= budgets.firstLoadOverFloorBytes,
    })
  }
  for (const [key, name, format] of PAGE_WEIGHT_MEASURES) {
    const floor = results.pageWeight.floor[key]
    for (const page of pages) {
      const weight = results.pageWeight.pages[page.id]
      row({
        name: `${name}, ${pageName(page)}`,
        site: format(weight[key]),
        floor: format(floor),
        difference: `+${format(weight[key] - floor)}`,
        budget: `≤ ${format(pageWeightBudget[key])} (npm test)`,
        pass: weight[key] <= pageWeightBudget[key],
      })
    }
  }

  const lighthouse = results.lighthouse
  const measured = Object.keys(lighthouse.desktop).filter((name) => name !== 'floor')
  const cal = results.calibration
  row({
    name: `Emulated phone: ${cal.target.name}, benchmarkIndex ${cal.target.benchmarkIndex}`,
    site: `host index ${Math.round(cal.hostIndex)} → CPU slowdown ${cal.cpuSlowdown}×`,
  })
  // The medians mean something only over enough runs: a quick look with fewer never passes.
  const runCounts = [lighthouse.mobile.devtools, lighthouse.mobile.simulate, lighthouse.desktop]
    .flatMap((mode) => Object.values(mode))
    .map((summary) => summary.runs.length)
  const fewest = Math.min(...runCounts)
  row({
    name: 'Lighthouse runs per page and mode (interleaved with the controls and the floor)',
    site: String(fewest),
    budget: `≥ ${MIN_RUNS}`,
    pass: fewest >= MIN_RUNS,
  })

  {
    // How steady the machine was while the judged runs ran: the host's benchmarkIndex that each
    // run measured at its start, and the floor's own TBT across its runs. The floor's page does
    // the same work every run, so a wide spread there is the machine, not the site; a loaded or
    // noisy host lengthens the site's long tasks more than the floor's few (docs/speed.md).
    const applied = lighthouse.mobile.devtools
    const indexes = Object.values(applied)
      .flatMap((summary) => summary.runs.map((r) => r.benchmarkIndex))
      .filter((value) => typeof value === 'number')
    const floorTbt = applied.floor.runs.map((r) => r.tbtMs).filter((v) => typeof v === 'number')
    if (indexes.length > 0 && floorTbt.length > 0)
      row({
        name: "Machine during the applied runs: host index at each run, the floor's TBT (not judged)",
        site: `index ${Math.round(Math.min(...indexes))}-${Math.round(Math.max(...indexes))}`,
        floor: `TBT ${Math.round(Math.min(...floorTbt))}-${ms(Math.max(...floorTbt))}`,
        budget: 'reported',
      })
  }

  const b = budgets.mobile
  {
    const method = 'devtools'
    const applied = lighthouse.mobile[method]
    const f = applied.floor.median
    for (const name of measured) {
      const s = applied[name].median
      // The page's control (first-screen.mjs), or undefined when the run did not measure it: the
      // budgets that need it then fail, a budget is never passed unseen.
      const c = applied[controlName(name)]?.median
      const lazyBlock = results.controls?.[name]?.lazyBlock
      const prefix = `Mobile ${METHODS[method]}, ${label(name)}:`
      const hasStyleLayout = (/** @type {any} */ m) => typeof m?.styleLayoutMs === 'number'
      row({
        name:
          `${prefix} its control, ` +
          (lazyBlock === false
            ? 'the whole page (it has no lazy block)'
            : 'cut before its first lazy block') +
          ', no script (not judged itself): style and layout; LCP; TBT',
        site: `${styleLayoutText(s)}; ${ms(s.lcpMs)}; ${ms(s.tbtMs)}`,
        control: c ? `${styleLayoutText(c)}; ${ms(c.lcpMs)}; ${ms(c.tbtMs)}` : 'not measured',
        floor: `${styleLayoutText(f)}; ${ms(f.lcpMs)}; ${ms(f.tbtMs)}`,
        difference: c
          ? 'vs control: ' +
            (hasStyleLayout(s) && hasStyleLayout(c)
              ? `${(s.styleLayoutMs / Math.max(c.styleLayoutMs, 1)).toFixed(2)}×`
              : 'not measured') +
            `; ${signedMs(s.lcpMs - c.lcpMs)}; ${signedMs(s.tbtMs - c.tbtMs)}`
          : '',
        budget: 'reported',
      })
      row({
        name: `${prefix} performance`,
        site: String(s.scores.performance),
        control: c ? String(c.scores.performance) : '',
        floor: String(f.scores.performance),
        difference: signed(s.scores.performance - f.scores.performance),
        budget: `≥ floor − ${b.performanceBelowFloor}`,
        pass: s.scores.performance >= f.scores.performance - b.performanceBelowFloor,
      })
      row({
        name: `${prefix} LCP`,
        site: ms(s.lcpMs),
        control: c ? ms(c.lcpMs) : 'not measured',
        floor: ms(f.lcpMs),
        difference: c ? signedMs(s.lcpMs - c.lcpMs) : '',
        budget: `≤ control + ${b.lcpOverControlMs} ms`,
        pass: Boolean(c) && s.lcpMs <= c.lcpMs + b.lcpOverControlMs,
      })
      row({
        name: `${prefix} TBT`,
        site: ms(s.tbtMs),
        control: c ? ms(c.tbtMs) : '',
        floor: ms(f.tbtMs),
        difference: signedMs(s.tbtMs - f.tbtMs),
        budget: `≤ floor + ${b.tbtOverFloorMs} ms`,
        pass: s.tbtMs <= f.tbtMs + b.tbtOverFloorMs,
      })
      {
        // A run whose reports lack the breakdown fails: a budget is never passed unseen. The
        // floor's is printed, not judged (issue 67: a first screen's own design is the control's).
        const measuredBoth = hasStyleLayout(s) && hasStyleLayout(c)
        row({
          name: `${prefix} style and layout`,
          site: styleLayoutText(s),
          control: styleLayoutText(c),
          floor: styleLayoutText(f),
          difference: measuredBoth
            ? `${(s.styleLayoutMs / Math.max(c.styleLayoutMs, 1)).toFixed(2)}×`
            : '',
          budget: `≤ ${b.styleLayoutOverControlFactor} × control`,
          pass: measuredBoth && s.styleLayoutMs <= c.styleLayoutMs * b.styleLayoutOverControlFactor,
        })
      }
      row({
        name: `${prefix} CLS`,
        site: clsText(s.cls),
        control: c ? clsText(c.cls) : '',
        floor: clsText(f.cls),
        budget: clsBudget(b.cls),
        pass: s.cls <= b.cls,
      })
    }
  }
  {
    // What PageSpeed Insights shows marketing, beside the judged figures: reported, not judged.
    const method = 'simulate'
    const all = lighthouse.mobile[method]
    const f = all.floor.median
    for (const name of measured) {
      const s = all[name].median
      row({
        name: `Mobile ${METHODS[method]}, ${label(name)}: performance, LCP, TBT, CLS (not judged)`,
        site: `${s.scores.performance}, ${ms(s.lcpMs)}, ${ms(s.tbtMs)}, ${s.cls.toFixed(3)}`,
        floor: `${f.scores.performance}, ${ms(f.lcpMs)}, ${ms(f.tbtMs)}, ${f.cls.toFixed(3)}`,
        difference: `${signed(s.scores.performance - f.scores.performance)}, ${signedMs(s.lcpMs - f.lcpMs)}, ${signedMs(s.tbtMs - f.tbtMs)}`,
        budget: 'reported',
      })
      // Lantern charges the scripts that finished downloading before the observed LCP to the
      // estimate; this says in how many runs that happened (docs/speed.md).
      row({
        name: `Mobile ${METHODS[method]}, ${label(name)}: runs whose LCP estimate includes the scripts' download (not judged)`,
        site: `${all[name].scriptsChargedRuns} of ${all[name].runs.length}`,
        floor: `${all.floor.scriptsChargedRuns} of ${all.floor.runs.length}`,
        budget: 'reported',
      })
    }
  }
  {
    // What a real phone of the target class gets: absolute figures, which move with the network
    // model and the target, so reported, never judged.
    const s = lighthouse.mobile.devtools.home?.median
    if (s)
      row({
        name: 'On the emulated phone (applied throttling, slow 4G), /: absolute, not judged',
        site: `performance ${s.scores.performance}, LCP ${ms(s.lcpMs)}, TBT ${ms(s.tbtMs)}`,
        budget: 'reported',
      })
  }
  for (const name of measured) {
    const s = lighthouse.desktop[name].median
    const f = lighthouse.desktop.floor.median
    const prefix = `Desktop, ${label(name)}:`
    row({
      name: `${prefix} performance`,
      site: String(s.scores.performance),
      floor: String(f.scores.performance),
      difference: signed(s.scores.performance - f.scores.performance),
      budget: `${budgets.desktop.performance}`,
      pass: s.scores.performance >= budgets.desktop.performance,
    })
    row({
      name: `${prefix} LCP, TBT`,
      site: `${ms(s.lcpMs)}, ${ms(s.tbtMs)}`,
      floor: `${ms(f.lcpMs)}, ${ms(f.tbtMs)}`,
    })
    row({
      name: `${prefix} CLS`,
      site: clsText(s.cls),
      floor: clsText(f.cls),
      budget: clsBudget(budgets.desktop.cls),
      pass: s.cls <= budgets.desktop.cls,
    })
    // The categories do not depend on throttling: the mobile ones come from the simulated runs,
    // the only mobile runs that audit them.
    for (const [preset, summary] of /** @type {const} */ ([
      ['Mobile', lighthouse.mobile.simulate[name]],
      ['Desktop', lighthouse.desktop[name]],
    ])) {
      for (const [key, title] of /** @type {const} */ ([
        ['accessibility', 'accessibility'],
        ['bestPractices', 'best practices'],
        ['seo', 'SEO'],
      ])) {
        row({
          name: `${preset}, ${label(name)}: ${title}`,
          site: String(summary.median.scores[key]),
          budget: `${budgets.otherCategories}`,
          pass: summary.median.scores[key] >= budgets.otherCategories,
        })
      }
    }
  }
  const thirdParty = Math.max(
    ...measured.flatMap((name) => [
      lighthouse.mobile.simulate[name].median.thirdPartyRequests,
      lighthouse.desktop[name].median.thirdPartyRequests,
    ]),
  )
  row({
    name: 'Third-party requests while loading the pages',
    site: String(thirdParty),
    budget: '0',
    pass: thirdParty === 0,
  })

  if (results.throughput) {
    const t = results.throughput
    row({
      name: `Throughput of / at the origin (ISR cache ${t.cacheHeader ?? '?'}, ${t.connections} conn., ${t.durationSeconds} s)`,
      site: `${Math.round(t.requestsPerSecond)} req/s, p50 ${ms(t.latencyP50Ms)}, p99 ${ms(t.latencyP99Ms)}`,
      budget: 'no errors',
      pass: t.non2xx === 0 && t.errors === 0 && t.timeouts === 0,
    })
  }
  if (results.front) {
    const front = results.front
    row({
      name: '/ through the nginx front vs the origin (same run)',
      site:
        front.skipped ??
        `${Math.round(front.frontRps)} vs ${Math.round(front.originRps)} req/s (${front.ratio.toFixed(1)}×)`,
      budget: `≥ ${frontMinRatio}× the origin`,
      pass: front.skipped ? null : front.pass,
    })
  }
  if (results.frontCost) {
    const cost = results.frontCost
    const was = (page, pick) =>
      cost.baseline ? ` (${cost.baseline.ref}: ${pick(cost.baseline[page])})` : ''
    const origin = (entry) => `${entry.pages} pages + ${entry.questions} variant questions`
    for (const page of Object.keys(cost.now ?? {})) {
      const now = cost.now[page]
      const experiment = page !== '/'
      row({
        name: `Origin requests per 100 views of ${page} through the front${experiment ? ' (an experiment runs)' : ''}`,
        site: `${origin(now)}${was(page, origin)}`,
        // A page with an experiment asks one question a view (never cached); its page is cached.
        budget: experiment ? `pages ≤ ${cost.maxOriginPer100}` : `≤ ${cost.maxOriginPer100} in all`,
        pass: experiment
          ? now.pages <= cost.maxOriginPer100
          : now.pages + now.questions <= cost.maxOriginPer100,
      })
      row({
        name: `${page} through the front, throughput`,
        site: `${Math.round(now.rps)} req/s${was(page, (entry) => `${Math.round(entry.rps)} req/s`)}`,
        budget: 'reported',
        pass: null,
      })
    }
    if (cost.skipped)
      row({ name: 'Origin requests through the front', site: cost.skipped, budget: '', pass: null })
  }
  if (results.serverAction) {
    const a = results.serverAction
    row({
      name: `Server Action (${a.submissions} at ${a.concurrency} at a time)`,
      site: `p50 ${ms(a.latencyP50Ms)}, p95 ${ms(a.latencyP95Ms)}; ${a.accepted} accepted`,
      budget: `all ${a.submissions} accepted`,
      pass: a.accepted === a.submissions,
    })
    for (const table of /** @type {const} */ (['dados_cliente', 'chat_messages'])) {
      row({
        name: `Rows in ${table} afterwards`,
        site: String(a.rows[table]),
        budget: `= ${a.accepted} accepted`,
        pass: a.rows[table] === a.accepted,
      })
    }
  }
  return rows
}

/**
 * The rows as a markdown table.
 * @param {Row[]} rows
 */
export function formatTable(rows) {
  const mark = (/** @type {boolean | null} */ pass) =>
    pass === null ? '' : pass ? '✅ pass' : '❌ fail'
  return [
    '| Measure | Site | Control | Floor | Difference | Budget | |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.site} | ${r.control} | ${r.floor} | ${r.difference} | ${r.budget} | ${mark(r.pass)} |`,
    ),
  ].join('\n')
}

/**
 * The app route whose page serves a path, from the build's app-path-routes-manifest.json
 * (`{"/p/[slug]/page": "/p/[slug]"}`): first-load JS needs the route's client reference
 * manifest. As in Next's own matching, segment by segment a static segment wins over a dynamic
 * one, which wins over a catch-all; a route handler (`/sitemap.xml/route`) that wins means no page.
 * @param {Record<string, string>} manifest page or route entry → route
 * @param {string} pathname
 * @returns {string | undefined} the page entry, e.g. `/p/[slug]/page`
 */
export function appPageFor(manifest, pathname) {
  const candidates = Object.entries(manifest)
    .filter(([entry]) => entry.endsWith('/page') || entry.endsWith('/route'))
    .map(([entry, route]) => {
      const segments = route.split('/').filter(Boolean)
      // Per segment: 0 static, 1 dynamic, 2 catch-all, 3 optional catch-all.
      const parts = segments.map((segment) => {
        if (/^\[\[\.\.\.[^\]]+\]\]$/.test(segment)) return { rank: 3, pattern: '(?:/.*)?' }
        if (/^\[\.\.\.[^\]]+\]$/.test(segment)) return { rank: 2, pattern: '/.+' }
        if (/^\[[^\]]+\]$/.test(segment)) return { rank: 1, pattern: '/[^/]+' }
        return { rank: 0, pattern: `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` }
      })
      const pattern = parts.map((part) => part.pattern).join('')
      const rank = parts.map((part) => part.rank)
      return { entry, regex: new RegExp(`^${pattern || '/'}$`), rank }
    })
    .filter(({ regex }) => regex.test(pathname))
    .sort((a, b) => {
      for (let i = 0; i < Math.max(a.rank.length, b.rank.length); i += 1) {
        const difference = (a.rank[i] ?? -1) - (b.rank[i] ?? -1)
        if (difference !== 0) return difference
      }
      return 0
    })
  const best = candidates[0]?.entry
  return best?.endsWith('/page') ? best : undefined
}
