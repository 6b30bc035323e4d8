import 'server-only'

import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { Readable } from 'node:stream'

import { bundledFilePath } from '@/lib/content/bundled'
import type { MATERIAL_FILE_QUERY_RESULT } from '@/sanity/types'

// A material's file as its download serves it (app/materiais/[slug]/baixar), from wherever it
// lives: a bundled PDF on disk (no Sanity project), a Sanity file asset on its CDN, or an editor's
// external https address. Always through the site's own origin, so the address never shows.

/** A slow or silent file host answers the visitor within this. */
const FETCH_TIMEOUT_MS = 15_000

export type MaterialFile = { body: ReadableStream<Uint8Array>; type: string; size?: number }

export async function openMaterialFile(
  material: NonNullable<MATERIAL_FILE_QUERY_RESULT>,
): Promise<MaterialFile | null> {
  const url = material.file?.url ?? material.externalUrl
  if (!url) return null
  const bundled = bundledFilePath(url)
  if (bundled) {
    const { size } = await stat(bundled)
    return {
      body: Readable.toWeb(createReadStream(bundled)) as ReadableStream<Uint8Array>,
      type: material.file?.mimeType ?? 'application/pdf',
      size,
    }
  }
  if (!url.startsWith('https://') && !url.startsWith('http://')) return null
  const answer = await fetch(url, {
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    redirect: 'follow',
  })
  if (!answer.ok || !answer.body) {
    console.error(`[materials] The file of "${material.slug}" answered ${answer.status}.`)
    return null
  }
  const length = Number(answer.headers.get('content-length'))
  return {
    body: answer.body,
    type: material.file?.mimeType ?? answer.headers.get('content-type') ?? 'application/pdf',
    ...(Number.isFinite(length) && length > 0 ? { size: length } : {}),
  }
}
