// Shared GROQ projections, used by the page queries (queries.ts) and the blocks' own fragments
// (components/blocks/fragments.ts). A projection's name ends in `Projection`, so it never shares a
// name with the schema's field factories (sanity/schema-types: `imageField`, `windowProjection`...). The same query text runs against the Content Lake (next-sanity's client)
// and against the bundled dataset (groq-js), so keep to GROQ that both evaluate.
export const claimProjection = /* groq */ `_id, value, label, sourceNote`

export const cardProjection = /* groq */ `_key, icon, title, description, "claim": claim->{${claimProjection}}`

// An image as components/content-image.tsx needs it: the editor's crop and hotspot, the alt text,
// and from the asset document its URL (the bundled path's local file), size and blur placeholder.
export const imageProjection = /* groq */ `
  alt, crop, hotspot,
  "asset": asset->{_id, url, extension, metadata{lqip, hasAlpha, dimensions{width, height}}}
`

// An experiment variant's entry (sanity/schema-types/variants.ts); each owner's fragment adds its
// `values` in its own shape, which lib/experiments/variants.ts puts over the defaults.
export const variantEntryProjection = /* groq */ `_key, "experiment": experiment->key.current, variant`

export const heroVariantValuesProjection = /* groq */ `headline, description, "visual": select(defined(visual.asset) => visual{${imageProjection}})`

export const sectionIntroProjection = /* groq */ `eyebrow, heading, intro, visual{${imageProjection}}`

export const linkProjection = /* groq */ `label, href`

// A document's visibility window (lib/content/visibility.ts): campaign pages, the announcement
// bar, and any type that adopts sanity/schema-types/visibility.ts.
export const windowProjection = /* groq */ `visibleFrom, visibleUntil`

// A page's window plus where visitors go outside it.
export const pageVisibilityProjection = /* groq */ `${windowProjection}, hiddenRedirect`

// An article as the listing, a category page, the related list and the latest-articles block
// show it: title, summary, date, cover and categories.
// Its window comes along: every list drops articles outside it at render time (lib/content).
export const articleCardProjection = /* groq */ `
  _id, title, "slug": slug.current, description, publishedAt, ${windowProjection},
  cover{${imageProjection}},
  "categories": categories[]->{_id, title, "slug": slug.current}
`

/**
 * Published articles with an address, as every article list filters them. Drafts and release
 * versions are excluded by id as well, so a list read in the raw perspective (a review link's page,
 * lib/content getReviewPage) never shows another document's draft. (In the drafts perspective a
 * draft carries its published id, so draft mode is unaffected.)
 */
export const articleFilter = /* groq */ `_type == "article" && defined(slug.current) && defined(publishedAt) && !(_id in path("drafts.**")) && !(_id in path("versions.**"))`

/**
 * Inside its visibility window at $now (an ISO instant), as lib/content/visibility.ts judges it:
 * the start included, the end not, and a window that ends before it starts never. For the lists
 * that must count and cut in GROQ (the listing's pages), not return every article.
 */
export const liveAtNowFilter = /* groq */ `(!defined(visibleFrom) || dateTime(visibleFrom) <= dateTime($now)) && (!defined(visibleUntil) || dateTime(visibleUntil) > dateTime($now)) && !(defined(visibleFrom) && defined(visibleUntil) && dateTime(visibleUntil) <= dateTime(visibleFrom))`

// The savings calculator's document (sanity/schema-types/roi-calculator.ts): its texts and
// assumptions, each with its source or note. Its claims are checked, not shown (the ROI block
// shows them already).
export const roiCalculatorProjection = /* groq */ `
  title, intro, disclaimer, referenceFleet,
  costPerVehicle{value, note},
  incidentsPerVehicle{value, note},
  incidentCost{value, note},
  avoidedPercent{value, note}
`

/** The calculator's one document, as a sub-query a block's fragment can embed. */
export const roiCalculatorDocument = /* groq */ `*[_type == "roiCalculator" && _id == "roiCalculator"][0]{${roiCalculatorProjection}}`

// A material as its card shows it (the list at /materiais, the "Material em destaque" block, the
// end of an article): never its file, whose address only the gated download reads.
export const materialCardProjection = /* groq */ `
  _id, title, "slug": slug.current, description, ${windowProjection},
  cover{${imageProjection}}
`

// A material's page data (its page, its preview, a review link): everything the page shows and
// its form asks, and nothing of its file, whose address only the gated download reads.
export const materialPageProjection = /* groq */ `
  _id, title, "slug": slug.current, description, _updatedAt,
  cover{${imageProjection}},
  learnings,
  "formFields": formFields[]{field, "required": coalesce(required, false)},
  "conversionIdentifier": coalesce(conversionIdentifier, slug.current),
  "notifySales": coalesce(notifySales, false),
  confirmation,
  seo{title, description, noindex, shareImage{${imageProjection}}},
  ${pageVisibilityProjection}
`
