import { readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import subset from '@/app/fonts/inter-subset.json'

// app/fonts/inter-latin-400-800.woff2 holds only the characters scripts/subset-font.py kept.
// Anything else still renders, but in the fallback face: these tests catch copy in the bundled
// dataset or in the components that would fall out of Inter.
const root = path.resolve(__dirname, '../..')
const covered = new Set(subset.codePoints)

function uncovered(text: string) {
  return [...new Set(text)].filter((char) => /\S/.test(char) && !covered.has(char.codePointAt(0)!))
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(strings)
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, child]) =>
      key.startsWith('_') ? [] : strings(child),
    )
  }
  return []
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) return sourceFiles(file)
    return /\.tsx?$/.test(name) ? [file] : []
  })
}

describe('Inter subset', () => {
  it('covers every character of the bundled content', () => {
    const dataset = readFileSync(path.join(root, 'sanity/dataset/production.ndjson'), 'utf8')
    const text = dataset
      .split('\n')
      .filter(Boolean)
      .flatMap((line) => strings(JSON.parse(line)))
      .join('')
    expect(text.length).toBeGreaterThan(1000)
    expect(uncovered(text)).toEqual([])
  })

  it('covers every character written in the page components', () => {
    const files = [
      ...sourceFiles(path.join(root, 'app')),
      // The blocks' schema.ts files are Studio text, not page text.
      ...sourceFiles(path.join(root, 'components')).filter(
        (file) => !(file.includes(`${path.sep}blocks${path.sep}`) && file.endsWith('schema.ts')),
      ),
    ]
    expect(files.length).toBeGreaterThan(10)
    const offenders = files.flatMap((file) =>
      uncovered(readFileSync(file, 'utf8')).map((char) => `${path.relative(root, file)}: ${char}`),
    )
    expect(offenders).toEqual([])
  })

  it('is not asked for a weight it lacks', () => {
    // Tailwind's font-thin/extralight/light (100-300) and font-black (900) fall outside 400-800.
    const files = [
      ...sourceFiles(path.join(root, 'app')),
      // The blocks' schema.ts files are Studio text, not page text.
      ...sourceFiles(path.join(root, 'components')).filter(
        (file) => !(file.includes(`${path.sep}blocks${path.sep}`) && file.endsWith('schema.ts')),
      ),
    ]
    const offenders = files.filter((file) =>
      /\bfont-(thin|extralight|light|black)\b/.test(readFileSync(file, 'utf8')),
    )
    expect(offenders).toEqual([])
  })

  it('keeps the weights the page uses and nothing outside Latin-1 but punctuation', () => {
    expect(subset.weights).toEqual([400, 800])
    expect(subset.codePoints).toContain('ã'.codePointAt(0))
    expect(
      subset.codePoints.every((point) => point < 0x100 || (point >= 0x2000 && point < 0x2300)),
    ).toBe(true)
  })
})
