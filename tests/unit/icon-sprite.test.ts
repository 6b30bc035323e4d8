import { readFileSync } from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import { SPRITE_ICONS } from '../../components/icons/names.mjs'
import { ICON_NAMES } from '../../sanity/lib/icon-names'
import { renderSprite } from '../../scripts/build-icon-sprite.mjs'

const spritePath = path.join(__dirname, '..', '..', 'components', 'icons', 'sprite.svg')

describe('icon sprite', () => {
  it('has a cell for every icon an editor can pick', () => {
    const sprite = readFileSync(spritePath, 'utf8')
    for (const name of ICON_NAMES) {
      expect(Object.keys(SPRITE_ICONS)).toContain(name)
      expect(sprite).toContain(`<view id="${name}" `)
    }
  })

  it('is what scripts/build-icon-sprite.mjs makes from the installed lucide-react', async () => {
    // Out of date after a lucide-react upgrade or a new icon: run the script and commit.
    expect(readFileSync(spritePath, 'utf8')).toBe(await renderSprite())
  })

  it('draws every icon with lucide’s stroke defaults and nothing executable', () => {
    const sprite = readFileSync(spritePath, 'utf8')
    expect(sprite.match(/<view /g)).toHaveLength(Object.keys(SPRITE_ICONS).length)
    expect(sprite).not.toMatch(/<script|on\w+=|href=/i)
  })
})
