#!/usr/bin/env node
// Renders a bundled SVG visual to the PNG the bundled dataset points to:
//   node scripts/render-visual.mjs public/images/vigia-app-alerta.svg
//
// Why a bitmap: an SVG <img> is a document of its own that the browser parses, lays out and
// paints on the page's main thread (the hero's, with its 54 circles and 8 texts: ~0.25 s of long
// tasks on the bench's emulated phone), while a bitmap is decoded off it. The SVG stays the
// source to edit; rerun this after changing it. Twice the SVG's size, for 2x screens; next/image
// serves it as WebP at the width each screen needs.
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { chromium } from '@playwright/test'
import sharp from 'sharp'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const source = process.argv[2]
if (!source?.endsWith('.svg') || !existsSync(source)) {
  console.error('Usage: node scripts/render-visual.mjs <file.svg>')
  process.exit(1)
}
const svg = await readFile(source, 'utf8')
const [, width, height] = svg.match(/<svg[^>]*\swidth="(\d+)"[^>]*\sheight="(\d+)"/) ?? []
if (!width || !height) throw new Error(`${source}: the <svg> needs width and height attributes.`)

const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] })
try {
  const page = await browser.newPage({
    viewport: { width: Number(width), height: Number(height) },
    deviceScaleFactor: 2,
  })
  // Inline, not as an <img>, so that its text is set in the site's Inter (app/fonts), as the
  // SVG asks, whatever fonts this machine has.
  const inter = await readFile(path.join(root, 'app', 'fonts', 'inter-latin-400-800.woff2'))
  await page.setContent(
    `<style>@font-face{font-family:Inter;font-weight:400 800;` +
      `src:url(data:font/woff2;base64,${inter.toString('base64')}) format('woff2')}` +
      `html,body{margin:0;background:transparent}svg{display:block}</style>${svg}`,
  )
  await page.evaluate(() => document.fonts.ready)
  const shot = await page.locator('svg').first().screenshot({ omitBackground: true })
  const target = source.replace(/\.svg$/, '.png')
  // A flat illustration: a 256-colour palette keeps it sharp at a fraction of the bytes.
  await writeFile(
    target,
    await sharp(shot).png({ palette: true, quality: 95, effort: 10 }).toBuffer(),
  )
  console.log(`${path.relative(process.cwd(), target)}: ${(await readFile(target)).length} bytes`)
} finally {
  await browser.close()
}
