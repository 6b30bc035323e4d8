import { readFile } from 'node:fs/promises'
import path from 'node:path'

import { evaluate, parse } from 'groq-js'

export const BUNDLED_DATASET_FILE = path.join(
  process.cwd(),
  'sanity',
  'dataset',
  'production.ndjson',
)

type SanityDocument = { _id: string; _type: string; [key: string]: unknown }

let datasetPromise: Promise<SanityDocument[]> | undefined

/** Parses an NDJSON export, keeping only published documents (drafts never reach the page). */
export function parseDataset(ndjson: string): SanityDocument[] {
  return ndjson
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SanityDocument)
    .filter((doc) => !doc._id.startsWith('drafts.') && !doc._id.startsWith('versions.'))
}

function loadBundledDataset(): Promise<SanityDocument[]> {
  datasetPromise ??= readFile(BUNDLED_DATASET_FILE, 'utf8').then(parseDataset)
  return datasetPromise
}

/** Evaluates a GROQ query the way the Content Lake's published perspective would. */
export async function queryDataset<T>(
  query: string,
  params: Record<string, unknown> = {},
  documents?: SanityDocument[],
): Promise<T> {
  const dataset = documents ?? (await loadBundledDataset())
  const result = await evaluate(parse(query, { params }), { dataset, params })
  return (await result.get()) as T
}
