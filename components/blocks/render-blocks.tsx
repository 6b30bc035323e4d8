import type { ComponentType } from 'react'

import { campaignPath } from '@/sanity/lib/paths'

import { BLOCK_COMPONENTS } from './components'
import type { BlockContext, BlockProps, BlockType } from './types'

type AnyBlock = { _key: string; _type: string }

function componentFor(type: string) {
  return Object.hasOwn(BLOCK_COMPONENTS, type)
    ? (BLOCK_COMPONENTS[type as BlockType] as ComponentType<BlockProps<BlockType>>)
    : undefined
}

/**
 * A campaign page's blocks in the editor's order. A block type this build does not know (content
 * from a newer Studio, before the site is deployed with its component) is left out with one log
 * line, so the rest of the page is served rather than an error or a blank page.
 */
export function RenderBlocks({
  blocks,
  context,
}: {
  blocks: AnyBlock[] | null | undefined
  context: BlockContext
}) {
  return (blocks ?? []).map((block) => {
    const Component = componentFor(block._type)
    if (!Component) {
      console.warn(
        `[blocks] ${campaignPath(context.pageSlug)}: skipped block ${block._key} of unknown type "${block._type}" (no component in blocks/components.tsx).`,
      )
      return null
    }
    return (
      <Component
        key={block._key}
        block={block as BlockProps<BlockType>['block']}
        context={context}
      />
    )
  })
}
