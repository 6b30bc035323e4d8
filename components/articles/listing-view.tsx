import type { SiteSettings, getArticleListPage } from '@/lib/content'
import { articlesTrail, LISTING_TITLE } from '@/lib/articles/trail'
import { ARTICLES_FEED_PATH, categoryPath } from '@/sanity/lib/paths'

import { ArticleGrid } from './article-card'
import { ArticlesShell } from './articles-shell'
import { Breadcrumbs } from './breadcrumbs'
import { Pagination } from './pagination'

export const LISTING_DESCRIPTION =
  'Artigos da equipe Vigia sobre fadiga e distração ao volante, o protocolo de resposta, segurança de frotas e LGPD.'

type ListPage = Awaited<ReturnType<typeof getArticleListPage>>

/** One page of the listing: newest first, with the categories and the feed. */
export function ListingView({
  list,
  page,
  settings,
}: {
  list: ListPage
  page: number
  settings: SiteSettings | null
}) {
  return (
    <ArticlesShell settings={settings}>
      <Breadcrumbs crumbs={articlesTrail()} />
      <header className="mt-6 max-w-3xl">
        <h1 className="text-3xl font-extrabold tracking-tight text-navy-950 sm:text-5xl">
          {LISTING_TITLE}
          {page > 1 ? <span className="text-slate-600">: página {page}</span> : null}
        </h1>
        <p className="mt-4 text-lg text-pretty text-slate-700">{LISTING_DESCRIPTION}</p>
        <p className="mt-3 text-sm">
          <a
            href={ARTICLES_FEED_PATH}
            className="font-medium text-brand-700 underline underline-offset-4"
          >
            Assine o feed RSS
          </a>
        </p>
      </header>
      {list.categories.length > 0 ? (
        <nav aria-label="Categorias" className="mt-8">
          <ul role="list" className="flex flex-wrap gap-2">
            {list.categories.map((category) => (
              <li key={category._id}>
                <a
                  href={categoryPath(category.slug ?? '')}
                  className="inline-flex rounded-full border border-slate-300 px-4 py-2 text-sm font-medium text-navy-950 hover:text-brand-700"
                >
                  {category.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <div className="mt-10">
        {list.articles.length > 0 ? (
          <ArticleGrid articles={list.articles} lazy />
        ) : (
          <p className="text-slate-700">Nenhum artigo publicado ainda.</p>
        )}
      </div>
      <Pagination page={page} pageCount={list.pageCount} />
    </ArticlesShell>
  )
}
