import { articleCardProjection, articleFilter } from '../../../sanity/lib/fragments'

// The newest 12 (GROQ slices take literal numbers only, so the block's `count` is applied by the
// component), optionally only from the chosen category.
export const latestArticlesBlockFragment = /* groq */ `_type == "latestArticlesBlock" => {
  eyebrow, heading, intro, count,
  "category": category->{title, "slug": slug.current},
  "articles": *[${articleFilter} && (!defined(^.category) || references(^.category._ref))]
    | order(publishedAt desc, _id asc)[0...12]{${articleCardProjection}}
}`
