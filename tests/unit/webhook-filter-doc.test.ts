import { readFileSync } from 'node:fs'

import { describe, expect, it } from 'vitest'

import { CONTENT_TAGS } from '@/lib/content/tags'
import { ROUTED, WEBHOOK_PROJECTION } from '@/lib/routed-type-plans'

// docs/content.md tells whoever sets up the Sanity webhook which types to send. A type the site
// revalidates but the filter leaves out is never published live (it shows up only at the hourly
// refresh), so the filter must list exactly the types the webhook route has a cache tag for.
describe('the webhook filter in docs/content.md', () => {
  it('lists exactly the document types the webhook route revalidates', () => {
    const doc = readFileSync('docs/content.md', 'utf8')
    const row = doc.split('\n').find((line) => line.startsWith('| Filter'))
    expect(row, 'docs/content.md has a "| Filter" row in the webhook table').toBeDefined()
    const list = row!.match(/_type in \[([^\]]*)\]/)?.[1]
    expect(list, 'the filter is `_type in [...]`').toBeDefined()
    const documented = [...list!.matchAll(/"([^"]+)"/g)].map((match) => match[1]).sort()
    expect(documented).toEqual(Object.keys(CONTENT_TAGS).sort())
    // Every routed type's document type among them (lib/routed-type-plans.ts).
    for (const routed of Object.values(ROUTED))
      if (routed.documentType) expect(documented).toContain(routed.documentType)
  })

  it('documents the projection the webhook route reads (the slug, and what it was before)', () => {
    const doc = readFileSync('docs/content.md', 'utf8')
    const row = doc.split('\n').find((line) => line.startsWith('| Projection'))
    expect(row).toContain(`\`${WEBHOOK_PROJECTION}\``)
  })
})
