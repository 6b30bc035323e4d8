import { cardFields, claimFields } from '../../../sanity/lib/fragments'

export const cardGridBlockFragment = /* groq */ `_type == "cardGridBlock" => {
  eyebrow, heading, intro,
  cards[]{${cardFields}},
  specTitle,
  "specs": specs[]->{${claimFields}}
}`
