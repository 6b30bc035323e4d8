import { claimFields, imageFields, linkFields } from '../../../sanity/lib/fragments'

// Without an image of its own, the block shows the home page's product visual.
export const heroBlockFragment = /* groq */ `_type == "heroBlock" => {
  eyebrow, headline, description,
  primaryCta{${linkFields}},
  secondaryCta{${linkFields}},
  "stats": stats[]->{${claimFields}},
  "visual": coalesce(visual, *[_type == "landingPage" && _id == "landingPage"][0].hero.visual){${imageFields}}
}`
