import { readFileSync } from 'node:fs'

import { evaluate, parse } from 'groq-js'
import { describe, expect, it } from 'vitest'

import { CONTENT_TAGS } from '@/lib/content/tags'
import { WEBHOOK_FILTER, WEBHOOK_PROJECTION } from '@/lib/routed-type-plans'
import { schemaTypes } from '@/sanity/schema-types'

// docs/content.md tells whoever sets up the Sanity webhook which types to send. A type the site
// revalidates but the filter leaves out is never published live (it shows up only at the hourly
// refresh), so the filter must let every type with a cache tag through, and the doc must say it.
const row = (field: string) =>
  readFileSync('docs/content.md', 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`| ${field}`))

async function passes(type: string) {
  return (await (await evaluate(parse(WEBHOOK_FILTER), { root: { _type: type } })).get()) === true
}

describe('the webhook filter in docs/content.md', () => {
  it('is WEBHOOK_FILTER: every type the site revalidates, none it never shows', async () => {
    expect(row('Filter')).toContain(`\`${WEBHOOK_FILTER}\``)
    for (const type of Object.keys(CONTENT_TAGS)) expect(await passes(type), type).toBe(true)
    const documents = schemaTypes.filter((type) => type.type === 'document').map((t) => t.name)
    for (const type of documents)
      expect(await passes(type), type).toBe(Object.hasOwn(CONTENT_TAGS, type))
    expect(await passes('sanity.imageAsset')).toBe(false)
  })

  it('documents the projection the webhook route reads (the slug, and what it was before)', () => {
    expect(row('Projection')).toContain(`\`${WEBHOOK_PROJECTION}\``)
  })
})
