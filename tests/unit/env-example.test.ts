import { readFileSync } from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

const root = path.resolve(__dirname, '../..')

/** Every variable lib/env.ts reads, by the name it passes to its readers (`optional('X')`…). */
function variablesReadByEnv(): string[] {
  const source = readFileSync(path.join(root, 'lib/env.ts'), 'utf8')
  return [...new Set([...source.matchAll(/\(\s*'([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1] as string))]
}

describe('.env.example', () => {
  const example = readFileSync(path.join(root, '.env.example'), 'utf8')

  it('finds the variables lib/env.ts reads', () => {
    // A guard for the guard: if the readers change shape, this must not pass on an empty list.
    expect(variablesReadByEnv()).toEqual(
      expect.arrayContaining(['SUPABASE_URL', 'REDIS_URL', 'CDN_PURGE_URL']),
    )
  })

  it.each(variablesReadByEnv())('documents %s, which lib/env.ts reads', (name) => {
    // Set or commented out, but named: a developer configuring the site finds every knob there.
    expect(example).toMatch(new RegExp(`^#? ?${name}=`, 'm'))
  })
})
