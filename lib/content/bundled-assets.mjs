/**
 * Resolves the bundled dataset's images (the import CLI's `_sanityAsset` convention) in memory, as
 * `sanity dataset import` would: asset documents with Sanity's id scheme and dimensions, so GROQ's
 * `asset->` gives the same shape as in the Content Lake; `assetUrl` decides only the URL. Plain
 * JavaScript, as the Content Lake double uses it too. docs/content.md, "Images".
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ASSET_KEY = '_sanityAsset'
const ASSET_VALUE = /^(image|file)@file:\/\/\.\/(.+)$/

/** Width and height of an SVG (its width/height attributes, else its viewBox) or a PNG. */
export function imageDimensions(bytes, extension) {
  if (extension === 'svg') {
    const root = bytes.toString('utf8').match(/<svg\b[^>]*>/)?.[0] ?? ''
    const attr = (name) => root.match(new RegExp(`\\s${name}="([\\d.]+)(?:px)?"`))?.[1]
    const viewBox = root
      .match(/\sviewBox="([^"]+)"/)?.[1]
      ?.trim()
      .split(/[\s,]+/)
    const width = Number(attr('width') ?? viewBox?.[2])
    const height = Number(attr('height') ?? viewBox?.[3])
    if (width > 0 && height > 0) return { width: Math.round(width), height: Math.round(height) }
  }
  if (extension === 'png' && bytes.length > 24) {
    // The IHDR chunk right after the 8-byte signature: width and height, big-endian.
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
  }
  return null
}

const MIME_TYPES = { svg: 'image/svg+xml', png: 'image/png' }

/**
 * The asset document `sanity dataset import` would create for a file.
 * @param {string} file absolute path
 * @param {(asset: {sha1: string, width: number, height: number, extension: string, file: string}) => string} assetUrl
 */
export function assetDocumentFor(file, assetUrl) {
  const extension = path.extname(file).slice(1).toLowerCase()
  const bytes = readFileSync(file)
  const dimensions = imageDimensions(bytes, extension)
  if (!dimensions || !MIME_TYPES[extension]) {
    throw new Error(
      `Bundled image ${file}: only SVG (with width/height or a viewBox) and PNG files are supported.`,
    )
  }
  const sha1 = createHash('sha1').update(bytes).digest('hex')
  const { width, height } = dimensions
  return {
    _id: `image-${sha1}-${width}x${height}-${extension}`,
    _type: 'sanity.imageAsset',
    assetId: sha1,
    extension,
    mimeType: MIME_TYPES[extension],
    originalFilename: path.basename(file),
    size: bytes.length,
    url: assetUrl({ sha1, width, height, extension, file }),
    metadata: {
      _type: 'sanity.imageMetadata',
      dimensions: { _type: 'sanity.imageDimensions', width, height, aspectRatio: width / height },
      // Vector art and PNGs may be transparent: a blurred placeholder would show through.
      hasAlpha: true,
      isOpaque: false,
    },
  }
}

const FILE_TYPES = { pdf: 'application/pdf' }

/**
 * The file asset document `sanity dataset import` would create (a material's PDF, issue 65).
 * @param {string} file absolute path
 * @param {(asset: {sha1: string, extension: string, file: string}) => string} fileUrl
 */
export function fileAssetDocumentFor(file, fileUrl) {
  const extension = path.extname(file).slice(1).toLowerCase()
  if (!FILE_TYPES[extension]) throw new Error(`Bundled file ${file}: only PDF files are supported.`)
  const bytes = readFileSync(file)
  const sha1 = createHash('sha1').update(bytes).digest('hex')
  return {
    _id: `file-${sha1}-${extension}`,
    _type: 'sanity.fileAsset',
    assetId: sha1,
    extension,
    mimeType: FILE_TYPES[extension],
    originalFilename: path.basename(file),
    size: bytes.length,
    url: fileUrl({ sha1, extension, file }),
  }
}

/**
 * Replaces every `_sanityAsset` image or file in `documents` with an asset reference and appends
 * one asset document per file. Returns new documents; the input is not changed. `fileUrl` decides
 * a file's URL (a material's PDF is never under public/: only its gated download serves it).
 * @template {{_id: string, _type: string}} T
 * @param {T[]} documents
 * @param {{datasetDir: string, assetUrl: Parameters<typeof assetDocumentFor>[1], fileUrl?: Parameters<typeof fileAssetDocumentFor>[1]}} options
 */
export function resolveBundledAssets(documents, { datasetDir, assetUrl, fileUrl }) {
  const assets = new Map()
  const base = pathToFileURL(datasetDir.endsWith(path.sep) ? datasetDir : datasetDir + path.sep)

  const visit = (value) => {
    if (Array.isArray(value)) return value.map(visit)
    if (value === null || typeof value !== 'object') return value
    const copy = {}
    for (const [key, child] of Object.entries(value)) {
      if (key !== ASSET_KEY) copy[key] = visit(child)
    }
    const ref = value[ASSET_KEY]
    if (typeof ref === 'string') {
      const match = ref.match(ASSET_VALUE)
      if (!match)
        throw new Error(
          `Unsupported ${ASSET_KEY} "${ref}": expected image@file://./… or file@file://./…`,
        )
      const file = fileURLToPath(new URL(match[2], base))
      let asset = assets.get(file)
      if (!asset) {
        if (match[1] === 'file' && !fileUrl)
          throw new Error(`${ASSET_KEY} "${ref}": this reader does not resolve files.`)
        asset =
          match[1] === 'file'
            ? fileAssetDocumentFor(file, /** @type {NonNullable<typeof fileUrl>} */ (fileUrl))
            : assetDocumentFor(file, assetUrl)
        assets.set(file, asset)
      }
      copy.asset = { _type: 'reference', _ref: asset._id }
    }
    return copy
  }

  return [...documents.map(visit), ...assets.values()]
}
