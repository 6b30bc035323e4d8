import { ContentImage } from '@/components/content-image'
import { LAZY_PART } from '@/components/ui/section'
import { formatArticleDate } from '@/lib/articles/dates'
import type { ArticleCard as ArticleCardValue } from '@/lib/content'
import { articlePath } from '@/sanity/lib/paths'

/** One article in a list: cover, category, title (the link), date and summary. */
export function ArticleCard({
  article,
  headingLevel = 2,
}: {
  article: ArticleCardValue
  headingLevel?: 2 | 3
}) {
  if (!article.slug || !article.title) return null
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const href = articlePath(article.slug)
  const category = article.categories?.[0]
  return (
    <article className="h-full overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
      {article.cover?.asset ? (
        <ContentImage
          image={article.cover}
          aspectRatio={16 / 9}
          sizes="(min-width: 1024px) 352px, (min-width: 640px) calc(50vw - 3rem), calc(100vw - 2rem)"
          className="h-auto w-full object-cover"
        />
      ) : null}
      <div className="p-6">
        {category?.title ? (
          <p className="text-sm font-semibold text-brand-700">{category.title}</p>
        ) : null}
        <Heading className="mt-2 text-xl font-bold text-balance text-navy-950">
          <a href={href} className="rounded-md underline-offset-4 hover:underline">
            {article.title}
          </a>
        </Heading>
        {article.publishedAt ? (
          <p className="mt-2 text-sm text-slate-600">
            <time dateTime={article.publishedAt}>{formatArticleDate(article.publishedAt)}</time>
          </p>
        ) : null}
        {article.description ? (
          <p className="mt-3 text-pretty text-slate-700">{article.description}</p>
        ) : null}
      </div>
    </article>
  )
}

/**
 * Cards from this one on are laid out only when near the screen: a page of twelve cost the
 * emulated phone ~35 ms of layout before its first paint (issue 53, docs/speed.md). The first two
 * are in a phone's first screen and a half, where `content-visibility: auto` would render them at
 * once anyway, in a second style-and-layout pass of its own.
 */
export const LAZY_CARDS_FROM = 2

/**
 * A grid of article cards, in the order given. A list page of its own (the listing, a category)
 * renders the cards from LAZY_CARDS_FROM on lazily; a grid inside a block that is lazy already
 * does not need to.
 */
export function ArticleGrid({
  articles,
  headingLevel = 2,
  lazy = false,
}: {
  articles: readonly ArticleCardValue[]
  headingLevel?: 2 | 3
  lazy?: boolean
}) {
  return (
    <ul role="list" className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {articles.map((article, index) => (
        <li key={article._id} className={lazy && index >= LAZY_CARDS_FROM ? LAZY_PART : undefined}>
          <ArticleCard article={article} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  )
}
