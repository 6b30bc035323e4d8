import type { Metadata } from 'next'
import { notFound } from 'next/navigation'

import { AnnouncementBar } from '@/components/announcement-bar'
import { DataProtectionContacts } from '@/components/data-protection-contacts'
import { Icon } from '@/components/icon'
import { LegalText } from '@/components/legal-text'
import { SiteFooter } from '@/components/site-footer'
import { SiteHeader } from '@/components/site-header'
import { SkipLink } from '@/components/skip-link'
import { Container } from '@/components/ui/section'
import { getLegalPage, getSiteSettings } from '@/lib/content'
import { staticParams } from '@/lib/routed-type-plans'
import { formatLegalDate } from '@/lib/legal-date'
import { pageMetadata, withBrand } from '@/lib/site-metadata'

// The legal pages (/privacidade, /termos, /lgpd, /acessibilidade: legalPage documents), one
// route over their slugs. Prerendered at build time and regenerated like the home page: the
// webhook revalidates the legalPage tag and requests the changed page (app/api/revalidate).
export const revalidate = 3600
// Only the slugs that exist: any other path at this level is the 404 page, with status 404.
// (Redirects from such paths, e.g. /onibus, are answered before this route, by proxy.ts.)
export const dynamicParams = false

type Props = { params: Promise<{ slug: string }> }

export function generateStaticParams() {
  return staticParams('legalPage', 'slug')
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params
  const [page, settings] = await Promise.all([getLegalPage(slug), getSiteSettings()])
  if (!page?.title) return {}
  return pageMetadata({
    path: `/${slug}`,
    title: withBrand(page.title, settings),
    description: page.seoDescription ?? page.summary,
    settings,
    type: 'article',
    card: 'summary',
    article: { modifiedTime: page.updatedAt ?? undefined },
  })
}

export default async function LegalPageRoute({ params }: Props) {
  const { slug } = await params
  const [page, settings] = await Promise.all([getLegalPage(slug), getSiteSettings()])
  if (!page) notFound()

  return (
    <>
      <SkipLink />
      <AnnouncementBar />
      <SiteHeader settings={settings} onHomePage={false} />
      <main id="conteudo" tabIndex={-1} className="bg-white pt-header outline-none">
        <Container className="py-10 sm:py-16">
          {/* A line length that reads comfortably: about 70 characters. */}
          <div className="mx-auto max-w-3xl">
            <a
              href="/"
              className="inline-flex items-center gap-2 rounded-md text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
            >
              <Icon name="arrow-left" className="size-4" />
              Voltar para o início
            </a>
            <article className="mt-6">
              <header className="border-b border-slate-200 pb-8">
                <h1 className="text-3xl font-extrabold tracking-tight text-balance text-navy-950 sm:text-4xl">
                  {page.title}
                </h1>
                {page.updatedAt ? (
                  <p className="mt-3 text-sm text-slate-600">
                    Última atualização:{' '}
                    <time dateTime={page.updatedAt}>{formatLegalDate(page.updatedAt)}</time>
                  </p>
                ) : null}
                {page.summary ? (
                  <p className="mt-5 text-lg text-pretty text-slate-700">{page.summary}</p>
                ) : null}
              </header>
              <LegalText body={page.body} />
              {page.showDataProtectionContacts ? (
                <DataProtectionContacts settings={settings} />
              ) : null}
            </article>
          </div>
        </Container>
      </main>
      <SiteFooter settings={settings} onHomePage={false} />
    </>
  )
}
