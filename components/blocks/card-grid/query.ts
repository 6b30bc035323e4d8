import { cardProjection, claimProjection } from '../../../sanity/lib/fragments'

export const cardGridBlockFragment = /* groq */ `_type == "cardGridBlock" => {
  eyebrow, heading, intro,
  cards[]{${cardProjection}},
  specTitle,
  "specs": specs[]->{${claimProjection}}
}`
