import { readFileSync } from 'node:fs'

import { BUNDLED_DATASET_FILE, parseDataset, queryDataset } from '@/lib/content/bundled'
import { LANDING_PAGE_QUERY, SITE_SETTINGS_QUERY } from '@/sanity/lib/queries'
import type { LANDING_PAGE_QUERY_RESULT, SITE_SETTINGS_QUERY_RESULT } from '@/sanity/types'

export type Doc = ReturnType<typeof parseDataset>[number]

export const BUNDLED_NDJSON = readFileSync(BUNDLED_DATASET_FILE, 'utf8')

/** A fresh, deep copy of the bundled dataset, safe to trim in a test. */
export function bundledDocuments(): Doc[] {
  return parseDataset(BUNDLED_NDJSON)
}

/** Both page queries over a dataset, exactly as lib/content runs them without a Sanity project. */
export async function queryPage(documents: Doc[]) {
  const [settings, page] = await Promise.all([
    queryDataset<SITE_SETTINGS_QUERY_RESULT>(SITE_SETTINGS_QUERY, {}, documents),
    queryDataset<LANDING_PAGE_QUERY_RESULT>(LANDING_PAGE_QUERY, {}, documents),
  ])
  return { settings, page }
}

/** Every `_ref` anywhere inside a value, with the path it sits at. */
export function collectReferences(value: unknown, at = ''): Array<{ ref: string; at: string }> {
  if (Array.isArray(value))
    return value.flatMap((item, index) => collectReferences(item, `${at}[${index}]`))
  if (value === null || typeof value !== 'object') return []
  const record = value as Record<string, unknown>
  const own = typeof record._ref === 'string' ? [{ ref: record._ref, at }] : []
  return [
    ...own,
    ...Object.entries(record).flatMap(([key, child]) =>
      key === '_ref' ? [] : collectReferences(child, `${at}.${key}`),
    ),
  ]
}

/** Finds a document by id in a dataset, failing the test when it is not there. */
export function documentById<T = Record<string, unknown>>(documents: Doc[], id: string): T & Doc {
  const found = documents.find((doc) => doc._id === id)
  if (!found) throw new Error(`No document "${id}" in the dataset.`)
  return found as T & Doc
}
