import { cardFields, claimFields } from '../../../sanity/lib/fragments'

export const benefitsBlockFragment = /* groq */ `_type == "benefitsBlock" => {
  eyebrow, heading, intro,
  cards[]{${cardFields}},
  roiTitle, roiDescription,
  "roiFigures": roiFigures[]->{${claimFields}},
  marketsTitle,
  markets[]{_key, icon, name, description, badge}
}`
