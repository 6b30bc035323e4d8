// The deterministic half of the speed budget that timings cannot give: how much the served `/`
// asks the browser to parse, style, lay out and hydrate. Lighthouse traces of the page put most
// of its gap to a bare Next page in style/layout and in React hydrating every element, fed by
// the inline RSC payload (the whole tree again, as data). These three numbers move only when the
// page's markup does, so `npm test` can hold them (tests/e2e/page-weight.spec.ts) while
// `npm run bench` prints them beside the timings.

/**
 * @typedef {{ htmlBytes: number, rscPayloadBytes: number, elements: number }} PageWeight
 */

/** Budgets, with room for modest content growth; see tests/e2e/page-weight.spec.ts. */
export const PAGE_WEIGHT_BUDGET = {
  htmlBytes: 112 * 1024,
  rscPayloadBytes: 60 * 1024,
  elements: 535,
}

/**
 * Measures an HTML document as served.
 * @param {string} html
 * @returns {PageWeight}
 */
export function pageWeight(html) {
  // Next streams the RSC payload as inline `self.__next_f.push([...])` scripts.
  const rscPayloadBytes = [...html.matchAll(/<script>(self\.__next_f\.push\([\s\S]*?)<\/script>/g)]
    .map((match) => Buffer.byteLength(match[1] ?? ''))
    .reduce((total, bytes) => total + bytes, 0)
  // Elements the parser builds: start tags outside scripts, styles and comments.
  const markup = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style|template)\b[^>]*>[\s\S]*?<\/\1>/gi, '<$1>')
  const elements = [...markup.matchAll(/<[a-zA-Z][\w-]*/g)].length
  return { htmlBytes: Buffer.byteLength(html), rscPayloadBytes, elements }
}

/**
 * @param {string} url
 * @returns {Promise<PageWeight>}
 */
export async function measurePageWeight(url) {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`)
  return pageWeight(await response.text())
}
