// First-load JavaScript of a page: what a visitor's browser downloads and runs before the page is
// interactive, split into the framework's and the site's by the build's own manifests. Shared by
// `npm run bench` and tests/e2e/budget.spec.ts, so both measure the same thing the same way. What
// counts and how a script is judged the framework's: docs/speed.md, "The budgets".

import { readFile } from 'node:fs/promises'
import path from 'node:path'
import vm from 'node:vm'
import { gzipSync } from 'node:zlib'

/**
 * First-load JS of `/` at most 140 KiB gzip: the framework's 133 KiB plus the site's own 3 KiB (the
 * mobile menu and the form's island; the form itself loads when a visitor nears it), with room
 * for a Next or React patch release. It was 151 KiB while the form loaded with the page.
 */
export const FIRST_LOAD_JS_BUDGET_BYTES = 140 * 1024
/**
 * The site's own share of it: a client component that grows past this belongs behind an island.
 * 5 KiB until components/render-all.tsx (issue 53) took it to 5,170 bytes: a script that must run
 * before the page hydrates, rendered by a client component so it is not in the RSC payload too.
 * The beacon's web vitals (issue 67) took it to 5,347 bytes: web-vitals itself is a chunk loaded
 * after the view is sent, but the code that loads it is first-load. 29 bytes are left.
 */
export const SITE_JS_BUDGET_BYTES = 5.25 * 1024

const FRAMEWORK_PACKAGES = ['next', 'react', 'react-dom', 'scheduler']

/**
 * @typedef {{ src: string, noModule: boolean, type: string | null }} ScriptTag
 * @typedef {{ url: string, file: string, bytes: number, gzipBytes: number, share: 'framework' | 'site' }} ScriptSize
 * @typedef {{
 *   url: string,
 *   scripts: ScriptSize[],
 *   frameworkBytes: number,
 *   siteBytes: number,
 *   totalBytes: number,
 * }} FirstLoadJs
 */

/**
 * The external scripts of an HTML document, in document order.
 * @param {string} html
 * @returns {ScriptTag[]}
 */
export function scriptTags(html) {
  /** @type {ScriptTag[]} */
  const tags = []
  for (const match of html.matchAll(/<script\b([^>]*)>/gi)) {
    const attributes = parseAttributes(match[1] ?? '')
    const src = attributes.get('src')
    if (!src) continue
    tags.push({ src, noModule: attributes.has('nomodule'), type: attributes.get('type') ?? null })
  }
  return tags
}

/**
 * @param {string} text the inside of a start tag, after its name
 * @returns {Map<string, string>} attribute names in lower case; valueless ones map to ''
 */
function parseAttributes(text) {
  const attributes = new Map()
  for (const match of text.matchAll(/([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    const name = (match[1] ?? '').toLowerCase()
    attributes.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''))
  }
  return attributes
}

/** @param {string} value */
function decodeEntities(value) {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/** @param {string} moduleKey a client module key such as `[project]/node_modules/next/dist/...` */
function isFrameworkModule(moduleKey) {
  const inNodeModules = moduleKey.split('/node_modules/').at(-1)
  if (inNodeModules === undefined || inNodeModules === moduleKey) return false
  const packageName = inNodeModules.split('/')[0]
  return FRAMEWORK_PACKAGES.includes(packageName ?? '')
}

/**
 * Reads the build's manifests and returns which static chunk paths (`static/chunks/…`) are the
 * framework's for the given app route.
 * @param {string} distDir the build folder (NEXT_DIST_DIR), absolute or relative to the cwd
 * @param {string} appPage the app route's page entry, e.g. `/page` for `/`
 * @returns {Promise<Set<string>>}
 */
export async function frameworkChunks(distDir, appPage = '/page') {
  const buildManifest = JSON.parse(
    await readFile(path.join(distDir, 'build-manifest.json'), 'utf8'),
  )
  /** @type {Set<string>} */
  const framework = new Set(buildManifest.rootMainFiles ?? [])

  // `<distDir>/server/app/page_client-reference-manifest.js` assigns globalThis.__RSC_MANIFEST.
  const manifestFile = path.join(
    distDir,
    'server',
    'app',
    `${appPage.replace(/^\//, '')}_client-reference-manifest.js`,
  )
  /** @type {{ __RSC_MANIFEST?: Record<string, { clientModules: Record<string, { chunks: string[] }> }> }} */
  const sandbox = {}
  vm.runInNewContext(await readFile(manifestFile, 'utf8'), { globalThis: sandbox })
  const manifest = sandbox.__RSC_MANIFEST?.[appPage]
  if (!manifest) throw new Error(`${manifestFile} has no client reference manifest for ${appPage}.`)

  /** @type {Map<string, boolean>} chunk → whether all its client modules are the framework's */
  const onlyFramework = new Map()
  for (const [moduleKey, entry] of Object.entries(manifest.clientModules)) {
    for (const chunk of entry.chunks) {
      const file = chunk.replace(/^\/_next\//, '')
      onlyFramework.set(file, (onlyFramework.get(file) ?? true) && isFrameworkModule(moduleKey))
    }
  }
  for (const [file, isFramework] of onlyFramework) if (isFramework) framework.add(file)
  return framework
}

/**
 * Measures the first-load JS of one page of a running production server.
 * @param {{ baseUrl: string, pagePath?: string, distDir: string, appPage?: string,
 *   headers?: Record<string, string> }} options
 *   `distDir` must be the build that server serves; `appPage` the route's page entry; `headers`
 *   go with the page's request (an experiment's variant, forced).
 * @returns {Promise<FirstLoadJs>}
 */
export async function measureFirstLoadJs({
  baseUrl,
  pagePath = '/',
  distDir,
  appPage = '/page',
  headers = {},
}) {
  const url = new URL(pagePath, baseUrl).toString()
  const response = await fetch(url, { headers })
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`)
  const html = await response.text()
  const framework = await frameworkChunks(distDir, appPage)

  const sources = [...new Set(scriptTags(html).flatMap((tag) => (tag.noModule ? [] : [tag.src])))]
  const scripts = await Promise.all(
    sources.map(async (src) => {
      const scriptUrl = new URL(src, url)
      const scriptResponse = await fetch(scriptUrl)
      if (!scriptResponse.ok) throw new Error(`GET ${scriptUrl}: HTTP ${scriptResponse.status}`)
      const body = Buffer.from(await scriptResponse.arrayBuffer())
      const file = scriptUrl.pathname.replace(/^\/_next\//, '')
      return /** @type {ScriptSize} */ ({
        url: scriptUrl.toString(),
        file,
        bytes: body.length,
        gzipBytes: gzipSync(body, { level: 9 }).length,
        share: framework.has(file) ? 'framework' : 'site',
      })
    }),
  )
  const sum = (/** @type {ScriptSize[]} */ list) =>
    list.reduce((total, script) => total + script.gzipBytes, 0)
  const frameworkBytes = sum(scripts.filter((script) => script.share === 'framework'))
  const siteBytes = sum(scripts.filter((script) => script.share === 'site'))
  return { url, scripts, frameworkBytes, siteBytes, totalBytes: frameworkBytes + siteBytes }
}

/** @param {number} bytes */
export function formatKiB(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`
}
