import type { ReactNode } from 'react'

import { AnnouncementBar } from '@/components/announcement-bar'
import { SiteFooter } from '@/components/site-footer'
import { SiteHeader } from '@/components/site-header'
import { SkipLink } from '@/components/skip-link'
import { Container } from '@/components/ui/section'
import type { SiteSettings } from '@/lib/content'

/**
 * The frame of every /conteudos page: the announcement bar (while one is active), the site's header
 * and footer around the content. Like the legal pages, the header leaves out the small-screen menu
 * (its only island), so these pages ship no JavaScript of their own (the bar's close button is a
 * tiny inline script, no chunk); the call to action leads to the home page's form.
 */
export function ArticlesShell({
  settings,
  children,
}: {
  settings: SiteSettings | null
  children: ReactNode
}) {
  return (
    <>
      <SkipLink />
      <AnnouncementBar />
      <SiteHeader settings={settings} onHomePage={false} />
      <main id="conteudo" tabIndex={-1} className="bg-white pt-header outline-none">
        <Container className="py-10 sm:py-16">{children}</Container>
      </main>
      <SiteFooter settings={settings} onHomePage={false} />
    </>
  )
}
