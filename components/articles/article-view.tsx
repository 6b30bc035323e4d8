import { stegaClean } from 'next-sanity'

import { ContentImage } from '@/components/content-image'
import { MaterialCard } from '@/components/materials/material-card'
import { Icon } from '@/components/icon'
import { ButtonLink } from '@/components/ui/button'
import { LAZY_PART } from '@/components/ui/section'
import { formatArticleDate, visibleUpdateDate } from '@/lib/articles/dates'
import { articleJsonLd, breadcrumbJsonLd, type Crumb } from '@/lib/articles/json-ld'
import {
  TOC_MIN_SECTIONS,
  readingMinutes,
  readingTimeLabel,
  splitIntroduction,
  tableOfContents,
} from '@/lib/articles/text'
import { articlesTrail } from '@/lib/articles/trail'
import type { Article, SiteSettings } from '@/lib/content'
import { serverEnv } from '@/lib/env'
import { jsonLdScript } from '@/lib/site-metadata'
import { cn } from '@/lib/utils'
import { articlePath, categoryPath } from '@/sanity/lib/paths'

import { ArticleBody, DEMO_HREF } from './article-body'
import { ArticleGrid } from './article-card'
import { ArticlesShell } from './articles-shell'
import { Breadcrumbs } from './breadcrumbs'

/** The article's social card (app/conteudos/[slug]/opengraph-image.tsx). */
export function articleShareImagePath(slug: string): string {
  return `${articlePath(slug)}/opengraph-image`
}

/** Início / Conteúdos / <main category> / <title>: the trail shown and published. */
export function articleCrumbs(article: Article): Crumb[] {
  const category = article.categories?.find((candidate) => candidate?.slug && candidate.title)
  return articlesTrail(
    ...(category?.slug && category.title
      ? [{ name: category.title, path: categoryPath(category.slug) }]
      : []),
    { name: article.title ?? '', path: articlePath(article.slug ?? '') },
  )
}

/**
 * An article page: breadcrumbs, the title (the page's only h1), author, dates and reading time,
 * the introduction, the cover, a table of contents for long articles, the sections,
 * the author's note, related articles and the way to the demo; plus BlogPosting and
 * BreadcrumbList data built from the same values. Server-rendered only: no JavaScript of its own.
 */
export function ArticleView({
  article,
  settings,
}: {
  article: Article
  settings: SiteSettings | null
}) {
  const slug = stegaClean(article.slug ?? '')
  const published = article.publishedAt ? stegaClean(article.publishedAt) : null
  const updated = visibleUpdateDate(published, article._updatedAt)
  const toc = tableOfContents(article.body)
  const { introduction, sections } = splitIntroduction(article.body)
  const minutes = readingMinutes(article.body, [article.title, article.description])
  const crumbs = articleCrumbs(article)
  const origin = serverEnv.siteUrl
  const author = article.author
  const categories = (article.categories ?? []).filter((category) => category?.title)
  const related = article.related ?? []

  const structuredData = [
    articleJsonLd(
      {
        title: article.title ?? '',
        description: article.description,
        datePublished: published ?? '',
        dateModified: updated ?? published ?? '',
        author: author?.name ? { name: author.name, kind: author.kind, role: author.role } : null,
        categories: categories.map((category) => category.title ?? ''),
        url: new URL(articlePath(slug), origin).href,
        image: new URL(articleShareImagePath(slug), origin).href,
      },
      {
        name: stegaClean(settings?.brandName ?? 'Vigia'),
        url: new URL('/', origin).href,
        logo: new URL('/icon.svg', origin).href,
      },
    ),
    breadcrumbJsonLd(crumbs, origin),
  ]

  return (
    <ArticlesShell settings={settings}>
      <script
        type="application/ld+json"
        dangerouslySetInnerHTML={{ __html: jsonLdScript(structuredData) }}
      />
      <div className="mx-auto max-w-3xl">
        <Breadcrumbs crumbs={crumbs} />
        <article className="mt-6">
          <header>
            {categories.length > 0 ? (
              <p className="flex flex-wrap gap-3 text-sm font-semibold text-brand-700">
                {categories.map((category) => (
                  <a
                    key={category._id}
                    href={categoryPath(category.slug ?? '')}
                    className="rounded-md underline-offset-4 hover:underline"
                  >
                    {category.title}
                  </a>
                ))}
              </p>
            ) : null}
            <h1 className="mt-3 text-3xl font-extrabold tracking-tight text-balance text-navy-950 sm:text-5xl">
              {article.title}
            </h1>
            {article.description ? (
              <p className="mt-5 text-lg text-pretty text-slate-700 sm:text-xl">
                {article.description}
              </p>
            ) : null}
            <div className="mt-6 flex items-center gap-4 border-t border-b border-slate-200 py-3">
              {author?.photo?.asset ? (
                <ContentImage
                  image={{ ...author.photo, alt: '' }}
                  aspectRatio={1}
                  sizes="48px"
                  className="size-12 shrink-0 rounded-full object-cover"
                />
              ) : null}
              <div className="min-w-0 text-sm">
                {author?.name ? (
                  <p className="font-semibold text-navy-950">
                    {author.name}
                    {author.role ? (
                      <span className="font-normal text-slate-600"> · {author.role}</span>
                    ) : null}
                  </p>
                ) : null}
                <p className="mt-1 text-slate-600">
                  {published ? (
                    <>
                      Publicado em{' '}
                      <time dateTime={published} data-date="published">
                        {formatArticleDate(published)}
                      </time>
                    </>
                  ) : null}
                  {updated ? (
                    <>
                      {' · '}Atualizado em{' '}
                      <time dateTime={updated} data-date="modified">
                        {formatArticleDate(updated)}
                      </time>
                    </>
                  ) : null}
                  {' · '}
                  <span data-reading-time>{readingTimeLabel(minutes)}</span>
                </p>
              </div>
            </div>
          </header>

          {introduction.length > 0 ? (
            <div className="mt-4">
              <ArticleBody body={introduction} toc={toc} />
            </div>
          ) : null}

          {/*
            The cover follows the introduction: on a phone the first screen is the title and the
            opening text, which paint with the HTML, while an image there could not paint before
            one more round trip on a weak signal. There it loads lazily; from lg up, where it is
            in the first screen, it is preloaded with high priority (docs/speed.md).
          */}
          {article.cover?.asset ? (
            <ContentImage
              image={article.cover}
              aspectRatio={16 / 9}
              preloadMedia="(min-width: 1024px)"
              sizes="(min-width: 800px) 768px, calc(100vw - 2rem)"
              className="mt-8 h-auto w-full rounded-2xl object-cover"
            />
          ) : null}

          {toc.length >= TOC_MIN_SECTIONS ? (
            <nav
              id="sumario"
              aria-labelledby="sumario-titulo"
              className="mt-8 rounded-2xl border border-slate-200 bg-slate-50 p-6"
            >
              <p id="sumario-titulo" className="font-semibold text-navy-950">
                Neste artigo
              </p>
              <ol className="mt-3 list-decimal space-y-2 pl-6 text-slate-700">
                {toc.map((entry) => (
                  <li key={entry.id}>
                    <a
                      href={`#${entry.id}`}
                      className="font-medium text-brand-700 underline-offset-4 hover:underline"
                    >
                      {entry.text}
                    </a>
                  </li>
                ))}
              </ol>
            </nav>
          ) : null}

          {/*
            Each section, and all that follows, is laid out when near the screen: the whole text
            laid out before the first paint cost the emulated phone ~70 ms (issue 53). A contents
            link lays them all out before it scrolls (components/render-all.tsx).
          */}
          {sections.map((section, index) => (
            <div key={section[0]?._key ?? index} className={LAZY_PART}>
              <ArticleBody body={section} toc={toc} />
            </div>
          ))}

          {author?.name && author.bio ? (
            <footer
              className={cn('mt-12 flex gap-4 rounded-2xl border border-slate-200 p-6', LAZY_PART)}
            >
              {author.photo?.asset ? (
                <ContentImage
                  image={{ ...author.photo, alt: '' }}
                  aspectRatio={1}
                  sizes="48px"
                  className="size-12 shrink-0 rounded-full object-cover"
                />
              ) : null}
              <div>
                <p className="font-semibold text-navy-950">Sobre {author.name}</p>
                <p className="mt-1 text-sm text-slate-700">{author.bio}</p>
              </div>
            </footer>
          ) : null}
        </article>
        {article.material ? (
          <aside aria-label="Material gratuito" className={cn('mt-12', LAZY_PART)}>
            <MaterialCard
              material={article.material}
              headingLevel={2}
              eyebrow="Material gratuito"
              wide
            />
          </aside>
        ) : null}
      </div>

      {related.length > 0 ? (
        <section aria-labelledby="relacionados" className={cn('mt-12', LAZY_PART)}>
          <h2 id="relacionados" className="text-2xl font-bold tracking-tight text-navy-950">
            Leia também
          </h2>
          <div className="mt-6">
            <ArticleGrid articles={related} headingLevel={3} />
          </div>
        </section>
      ) : null}

      <section
        aria-labelledby="demonstracao"
        className={cn('mt-12 rounded-2xl bg-brand-700 p-6 text-white sm:p-10', LAZY_PART)}
      >
        <h2 id="demonstracao" className="text-2xl font-bold tracking-tight text-balance">
          Veja a Vigia funcionando na sua frota
        </h2>
        <p className="mt-3 max-w-2xl text-pretty text-brand-50">
          Peça uma demonstração personalizada: nossa equipe retorna em até 24 horas.
        </p>
        <ButtonLink href={DEMO_HREF} variant="signal" size="lg" className="mt-6">
          Solicitar Demonstração
          <Icon name="arrow-right" />
        </ButtonLink>
      </section>
    </ArticlesShell>
  )
}
