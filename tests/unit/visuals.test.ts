import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

// An SVG the site serves as an <img> is a document of its own, laid out on the page's main thread,
// and SVG text is the costly part of it (docs/speed.md): the visuals the dataset points to carry
// their texts as outlines (scripts/outline-visual.py), generated from a source that keeps them.
const root = process.cwd()
const dataset = readFileSync(path.join(root, 'sanity/dataset/production.ndjson'), 'utf8')
const served = readdirSync(path.join(root, 'public/images')).filter(
  (file) => file.endsWith('.svg') && dataset.includes(`public/images/${file}`),
)

describe('bundled SVG visuals', () => {
  it('the dataset serves at least the risk chart', () => {
    expect(served).toContain('como-funciona-fluxo.svg')
  })

  it.each(served)('%s has no <text> to lay out', (file) => {
    expect(readFileSync(path.join(root, 'public/images', file), 'utf8')).not.toMatch(/<text[\s>]/)
  })

  it('the risk chart keeps its source, with the same title, and texts to edit', () => {
    const title = (svg: string) => svg.match(/<title>([\s\S]*?)<\/title>/)?.[1]
    const source = readFileSync(path.join(root, 'scripts/visuals/como-funciona-fluxo.svg'), 'utf8')
    const outlined = readFileSync(path.join(root, 'public/images/como-funciona-fluxo.svg'), 'utf8')
    expect(source).toMatch(/<text[\s>]/)
    expect(title(outlined)).toBeTruthy()
    expect(title(outlined)).toBe(title(source))
  })
})
