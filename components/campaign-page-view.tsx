import { RenderBlocks } from '@/components/blocks/render-blocks'
import { FORM_ANCHOR } from '@/components/blocks/types'
import { AnnouncementBar } from '@/components/announcement-bar'
import { SiteFooter } from '@/components/site-footer'
import { SiteHeader } from '@/components/site-header'
import { SkipLink } from '@/components/skip-link'
import type { CampaignPage, SiteSettings } from '@/lib/content'

/**
 * A campaign page: the site's header and footer around the editor's blocks. Like the legal pages,
 * the header leaves out the small-screen menu (the only island it has) and shows the call to
 * action at every width; it leads to this page's own form when the page has one.
 */
export function CampaignPageView({
  page,
  settings,
}: {
  page: CampaignPage
  settings: SiteSettings | null
}) {
  const hasForm = (page.blocks ?? []).some((block) => block._type === 'demoFormBlock')
  return (
    <>
      <SkipLink />
      <AnnouncementBar />
      <SiteHeader
        settings={settings}
        onHomePage={false}
        ctaHref={hasForm ? `#${FORM_ANCHOR}` : undefined}
      />
      <main id="conteudo" tabIndex={-1} className="outline-none">
        <RenderBlocks blocks={page.blocks} context={{ settings, pageSlug: page.slug ?? '' }} />
      </main>
      <SiteFooter settings={settings} onHomePage={false} />
    </>
  )
}
