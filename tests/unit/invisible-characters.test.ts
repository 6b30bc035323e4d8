import { describe, expect, it } from 'vitest'

import { cleanValue } from '@/lib/analytics/collect'
import { sanitizeText } from '@/lib/leads/compose'

// One list of invisible characters (lib/text/invisible.ts) for visitor text everywhere: what a
// lead's text loses, a campaign, source or medium in the visit counts loses too.

const INVISIBLE = {
  'zero-width space': '\u200b',
  'zero-width joiner': '\u200d',
  'right-to-left override': '\u202e',
  'byte-order mark': '\ufeff',
  'tag letter A': '\u{E0041}',
  'tag block, unassigned': '\u{E0000}',
  'variation selector 16': '\ufe0f',
  'variation selector 17': '\u{E0100}',
  'Mongolian variation selector': '\u180b',
  'combining grapheme joiner': '\u034f',
  'Hangul choseong filler': '\u115f',
  'Hangul jungseong filler': '\u1160',
  'Hangul filler': '\u3164',
  'halfwidth Hangul filler': '\uffa0',
}

describe('invisible characters', () => {
  for (const [name, character] of Object.entries(INVISIBLE)) {
    it(`are removed from leads and from visit counts alike: ${name}`, () => {
      expect(sanitizeText(`black${character}friday`)).toBe('blackfriday')
      expect(cleanValue(`black${character}friday`)).toBe('blackfriday')
      // Nothing but invisible characters is no value at all.
      expect(cleanValue(character.repeat(3))).toBeUndefined()
    })
  }

  it('leave visible text of any script alone', () => {
    for (const text of ['Conceição Ñandú 北京', '한국 캠페인', 'ação-2026']) {
      expect(sanitizeText(text)).toBe(text)
      expect(cleanValue(text)).toBe(text)
    }
  })
})
