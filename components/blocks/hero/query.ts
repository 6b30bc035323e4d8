import { claimProjection, imageProjection, linkProjection } from '../../../sanity/lib/fragments'

// Without an image of its own, the block shows the home page's product visual.
export const heroBlockFragment = /* groq */ `_type == "heroBlock" => {
  eyebrow, headline, description,
  primaryCta{${linkProjection}},
  secondaryCta{${linkProjection}},
  "stats": stats[]->{${claimProjection}},
  "visual": coalesce(visual, *[_type == "landingPage" && _id == "landingPage"][0].hero.visual){${imageProjection}}
}`
