import { describe, expect, it } from 'vitest'

import { copyAddress, mapDocument } from '../../sanity/actions/duplicate-with-address'
import { SLUG_MAX_LENGTH } from '../../sanity/lib/paths'
import { routedSlugProblem } from '../../sanity/lib/routed-type-rules'

describe('a duplicated page’s address', () => {
  it('is the original’s plus "-copia", a valid address of its type', () => {
    expect(copyAddress('onibus-rodoviarios')).toBe('onibus-rodoviarios-copia')
    expect(routedSlugProblem('campaignPage', copyAddress('onibus-rodoviarios'))).toBeUndefined()
  })

  it('stays within the slug’s length, with no double hyphen where it was cut', () => {
    const long = `${'a'.repeat(53)}-b-cdef`
    const copy = copyAddress(long)
    expect(copy.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH)
    expect(copy).toBe(`${'a'.repeat(53)}-copia`)
    expect(routedSlugProblem('article', copy)).toBeUndefined()
  })

  it('leaves the original’s experiment variants behind, and every other field as it was', () => {
    const original = {
      _id: 'drafts.copy',
      _type: 'campaignPage',
      title: 'Ônibus',
      slug: { _type: 'slug', current: 'onibus' },
      blocks: [
        { _type: 'heroBlock', _key: 'a', headline: 'H', experimentVariants: [{ variant: 'x' }] },
        { _type: 'faqBlock', _key: 'b' },
      ],
    }
    expect(mapDocument(original)).toEqual({
      ...original,
      slug: { _type: 'slug', current: 'onibus-copia' },
      blocks: [
        { _type: 'heroBlock', _key: 'a', headline: 'H' },
        { _type: 'faqBlock', _key: 'b' },
      ],
    })
  })
})
