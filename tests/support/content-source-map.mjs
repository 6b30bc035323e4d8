/**
 * Content Source Maps for the Content Lake double: the `resultSourceMap` the query API adds when
 * asked (`?resultSourceMap=true|withKeyArraySelector`), which @sanity/client turns into the stega
 * strings Presentation's click-to-edit overlays read. Format:
 * https://www.sanity.io/docs/content-source-maps (types: @sanity/client's ContentSourceMap).
 *
 * groq-js evaluates a query but does not trace where its values come from, so this maps back
 * after the fact, for any query: each string of the result is looked up among the string values
 * of the documents the query could see, and the candidate whose path ends the way the result's
 * path ends (`hero.headline` for `$['hero']['headline']`, `value` for a dereferenced claim's
 * `$['hero']['stats'][0]['value']`) wins. A string two sources explain equally well stays unmapped,
 * as does one no document holds (a literal, a concatenation): no overlay, rather than a wrong one.
 */

/** @typedef {string | number | {_key: string, _index: number}} Segment */

const ESCAPES = { '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', "'": "\\'", '\\': '\\\\' }

/**
 * A path as the Content Lake writes it: `$['a'][0]`, or `[?(@._key=='k')]` for a keyed item.
 * @param {Segment[]} path
 */
export function jsonPath(path) {
  return `$${path
    .map((segment) => {
      if (typeof segment === 'number') return `[${segment}]`
      if (typeof segment === 'string')
        return `['${segment.replace(/[\f\n\r\t'\\]/g, (c) => ESCAPES[c])}']`
      return `[?(@._key=='${segment._key.replace(/['\\]/g, (c) => ESCAPES[c])}')]`
    })
    .join('')}`
}

const isRecord = (value) => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Calls `visit(value, path)` for every string under `value` not held by a system field (`_id`,
 * `_type`, `_key`, `_ref`…); array items that have a `_key` get a keyed segment.
 * @param {unknown} value
 * @param {(value: string, path: Segment[]) => void} visit
 * @param {Segment[]} path
 */
function eachString(value, visit, path = []) {
  if (typeof value === 'string') return visit(value, path)
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      const key = isRecord(item) && typeof item._key === 'string' ? item._key : undefined
      eachString(item, visit, [...path, key === undefined ? index : { _key: key, _index: index }])
    })
    return
  }
  if (!isRecord(value)) return
  for (const [name, child] of Object.entries(value)) {
    if (!name.startsWith('_')) eachString(child, visit, [...path, name])
  }
}

/** Whether two segments name the same place: the same field, the same key, or the same index. */
function sameSegment(a, b) {
  if (typeof a === 'string' || typeof b === 'string') return a === b
  const keyA = typeof a === 'object' ? a._key : undefined
  const keyB = typeof b === 'object' ? b._key : undefined
  if (keyA !== undefined || keyB !== undefined) return keyA === keyB
  return a === b
}

/** How many trailing segments the two paths share. */
function sharedTail(resultPath, sourcePath) {
  let shared = 0
  while (
    shared < resultPath.length &&
    shared < sourcePath.length &&
    sameSegment(
      resultPath[resultPath.length - 1 - shared],
      sourcePath[sourcePath.length - 1 - shared],
    )
  ) {
    shared += 1
  }
  return shared
}

/**
 * The Content Source Map of `result`, a query's answer over `documents` (as the perspective showed
 * them: a draft overlaid on its published document carries its own id in `_originalId`).
 * @param {unknown} result
 * @param {Array<Record<string, unknown>>} documents
 * @param {{keyed?: boolean}} [options] keyed: `withKeyArraySelector`, items named by `_key`
 */
export function contentSourceMap(result, documents, { keyed = false } = {}) {
  /** @type {Map<string, Array<{document: number, path: Segment[]}>>} */
  const sources = new Map()
  documents.forEach((doc, document) => {
    eachString(doc, (value, path) => {
      const list = sources.get(value) ?? []
      list.push({ document, path })
      sources.set(value, list)
    })
  })

  const map = { documents: [], paths: [], mappings: {} }
  /** @type {Map<number, number>} */
  const documentIndex = new Map()
  /** @type {Map<string, number>} */
  const pathIndex = new Map()
  const indexOf = (index, list, key, value) => {
    if (!index.has(key)) index.set(key, list.push(value) - 1)
    return index.get(key)
  }

  eachString(result, (value, resultPath) => {
    const candidates = sources.get(value)
    if (!candidates) return
    let best = -1
    let chosen
    let tied = false
    for (const candidate of candidates) {
      const shared = sharedTail(resultPath, candidate.path)
      if (shared > best) [best, chosen, tied] = [shared, candidate, false]
      else if (shared === best) tied = true
    }
    // A renamed field ("slug": slug.current) is still its source when only one document holds it.
    if (tied || (best === 0 && candidates.length > 1)) return
    const doc = documents[chosen.document]
    const sourcePath = keyed
      ? chosen.path
      : chosen.path.map((segment) => (typeof segment === 'object' ? segment._index : segment))
    const source = {
      type: 'documentValue',
      document: indexOf(documentIndex, map.documents, chosen.document, {
        _id: doc._originalId ?? doc._id,
        _type: doc._type,
      }),
      path: indexOf(pathIndex, map.paths, jsonPath(sourcePath), jsonPath(sourcePath)),
    }
    // Mappings are keyed by the result's own path, its array items by index.
    const mappingPath = resultPath.map((segment) =>
      typeof segment === 'object' ? segment._index : segment,
    )
    map.mappings[jsonPath(mappingPath)] = { type: 'value', source }
  })
  return map
}
