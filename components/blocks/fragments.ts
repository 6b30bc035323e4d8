import {
  articleCardProjection,
  articleFilter,
  cardProjection,
  claimProjection,
  heroVariantValuesProjection,
  imageProjection,
  linkProjection,
  materialCardProjection,
  roiCalculatorDocument,
  variantEntryProjection,
} from '../../sanity/lib/fragments'

/**
 * The second of a block's three registration lists (docs/content.md, "Adding a block"): how
 * CAMPAIGN_PAGE_QUERY and REVIEW_PAGE_QUERY project each block type, written here rather than in
 * a file per block (a few lines each). A type without one comes back as {_key, _type} only, and
 * the page skips it; tests/unit/block-registry.test.ts fails when one is missing. Relative
 * imports: typegen resolves them. A hero without an image shows the home page's product visual;
 * the latest articles are the newest 12 (GROQ slices take literal numbers only: the component
 * applies `count`); the calculator block carries the calculator's one document, its assumptions
 * shared with the home page.
 */
export const blockFragments = /* groq */ `
  _type == "heroBlock" => {
    eyebrow, headline, description,
    primaryCta{${linkProjection}},
    secondaryCta{${linkProjection}},
    "stats": stats[]->{${claimProjection}},
    "visual": coalesce(visual, *[_type == "landingPage" && _id == "landingPage"][0].hero.visual){${imageProjection}},
    "experimentVariants": experimentVariants[]{${variantEntryProjection}, "values": {${heroVariantValuesProjection}, "primaryCta": {"label": ctaLabel}}}
  },
  _type == "stepsBlock" => {
    eyebrow, heading, intro,
    steps[]{${cardProjection}}
  },
  _type == "cardGridBlock" => {
    eyebrow, heading, intro,
    cards[]{${cardProjection}},
    specTitle,
    "specs": specs[]->{${claimProjection}}
  },
  _type == "benefitsBlock" => {
    eyebrow, heading, intro,
    cards[]{${cardProjection}},
    roiTitle, roiDescription,
    "roiFigures": roiFigures[]->{${claimProjection}},
    marketsTitle,
    markets[]{_key, icon, name, description, badge}
  },
  _type == "ctaBandBlock" => {
    heading, text,
    primaryCta{${linkProjection}},
    secondaryCta{${linkProjection}},
    "experimentVariants": experimentVariants[]{${variantEntryProjection}, "values": {"primaryCta": {"label": ctaLabel, "href": ctaHref}}}
  },
  _type == "demoFormBlock" => {
    eyebrow, heading, intro, formTitle, detailsTitle, offerTitle, offers, whatsappCta
  },
  _type == "faqBlock" => {
    eyebrow, heading, intro,
    items[]{_key, question, answer}
  },
  _type == "richTextBlock" => {
    heading,
    body[]{
      ...,
      _type == "image" => {_type, _key, ${imageProjection}}
    }
  },
  _type == "latestArticlesBlock" => {
    eyebrow, heading, intro, count,
    "category": category->{title, "slug": slug.current},
    "articles": *[${articleFilter} && (!defined(^.category) || references(^.category._ref))]
      | order(publishedAt desc, _id asc)[0...12]{${articleCardProjection}}
  },
  _type == "roiCalculatorBlock" => {
    eyebrow, heading, intro,
    "calculator": ${roiCalculatorDocument}
  },
  _type == "materialFeatureBlock" => {
    eyebrow, buttonLabel,
    "material": material->{${materialCardProjection}}
  }
`
