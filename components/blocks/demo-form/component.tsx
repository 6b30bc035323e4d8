import { LeadForm } from '@/components/lead-form'
import { PrivacyNotice } from '@/components/privacy-notice'
import { Contact } from '@/components/sections/contact'

import { blockAnchor, type BlockProps } from '../types'

/**
 * The home page's contact section with the same form, Server Action and two inserts; the lead
 * also records the page it came from (its slug).
 */
export function DemoFormBlock({ block, context }: BlockProps<'demoFormBlock'>) {
  return (
    <Contact
      id={blockAnchor(block)}
      contato={block}
      contact={context.settings?.contact ?? null}
      form={
        <LeadForm
          title={block.formTitle}
          page={context.pageSlug}
          notice={<PrivacyNotice brandName={context.settings?.brandName} />}
        />
      }
    />
  )
}
