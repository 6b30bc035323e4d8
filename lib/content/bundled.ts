import { readFile } from 'node:fs/promises'
import path from 'node:path'

import { evaluate, parse } from 'groq-js'

import { resolveBundledAssets } from './bundled-assets.mjs'

export const BUNDLED_DATASET_FILE = path.join(
  process.cwd(),
  'sanity',
  'dataset',
  'production.ndjson',
)

type SanityDocument = { _id: string; _type: string; [key: string]: unknown }

const PUBLIC_DIR = path.join(process.cwd(), 'public')

/**
 * The bundled dataset as the Content Lake would hold it after `sanity dataset import`: each
 * `_sanityAsset` image becomes a reference to an asset document, whose URL is the file's path
 * under public/ (served by Next, resized by next/image when it is a bitmap).
 */
export function withBundledAssets(documents: SanityDocument[]): SanityDocument[] {
  return resolveBundledAssets(documents, {
    datasetDir: path.dirname(BUNDLED_DATASET_FILE),
    assetUrl: ({ file }) => {
      const relative = path.relative(PUBLIC_DIR, file)
      if (relative.startsWith('..') || path.isAbsolute(relative)) {
        throw new Error(`Bundled image ${file} must be inside public/ so the site can serve it.`)
      }
      return `/${relative.split(path.sep).join('/')}`
    },
    // Never under public/: a material's file is served only through its gated download
    // (lib/materials/file.ts reads it from disk by this address).
    fileUrl: ({ file }) =>
      `${BUNDLED_FILE_SCHEME}${path.relative(path.dirname(BUNDLED_DATASET_FILE), file).split(path.sep).join('/')}`,
  })
}

/** How a bundled file's asset URL starts: the rest is its path under sanity/dataset/. */
export const BUNDLED_FILE_SCHEME = 'bundled-file:'

/** The bundled file at this asset URL, as an absolute path inside sanity/dataset/, or null. */
export function bundledFilePath(url: string): string | null {
  if (!url.startsWith(BUNDLED_FILE_SCHEME)) return null
  const datasetDir = path.dirname(BUNDLED_DATASET_FILE)
  const file = path.resolve(datasetDir, url.slice(BUNDLED_FILE_SCHEME.length))
  return file.startsWith(datasetDir + path.sep) ? file : null
}

let datasetPromise: Promise<SanityDocument[]> | undefined

/**
 * Parses an NDJSON export, keeping only published documents (drafts never reach the page), with
 * its images resolved the way `sanity dataset import` would (withBundledAssets).
 */
export function parseDataset(ndjson: string): SanityDocument[] {
  const documents = ndjson
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SanityDocument)
    .filter((doc) => !doc._id.startsWith('drafts.') && !doc._id.startsWith('versions.'))
  return withBundledAssets(documents)
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
