import fs from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

// Playwright runs the projects side by side, so two spec files listening on the same offset from
// E2E_PORT_BASE fight over the port, and whichever starts second fails (redis-server exited 1).
// Each offset belongs to one file: tests/e2e/servers.ts's server(n), scripts/e2e-builds.cjs's and
// the specs' portFor(n).

const root = path.resolve(__dirname, '..', '..')
const e2eDir = path.join(root, 'tests', 'e2e')
const files = [
  ...fs
    .readdirSync(e2eDir)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.join(e2eDir, name)),
  path.join(root, 'scripts', 'e2e-builds.cjs'),
]

function offsetsOf(file: string): number[] {
  const text = fs.readFileSync(file, 'utf8')
  return [...text.matchAll(/\b(?:portFor|server)\((\d+)\)/g)].map((match) => Number(match[1]))
}

describe('end-to-end ports', () => {
  it('gives each offset from E2E_PORT_BASE to one file only', () => {
    const owners = new Map<number, Set<string>>()
    for (const file of files) {
      for (const offset of offsetsOf(file)) {
        const owner = owners.get(offset) ?? new Set<string>()
        owner.add(path.relative(root, file))
        owners.set(offset, owner)
      }
    }
    expect(owners.size).toBeGreaterThan(10)
    const shared = [...owners]
      .filter(([, names]) => names.size > 1)
      .map(([offset, names]) => `${offset}: ${[...names].sort().join(', ')}`)
    expect(shared).toEqual([])
  })
})
