import { cardProjection, claimProjection } from '../../../sanity/lib/fragments'

export const benefitsBlockFragment = /* groq */ `_type == "benefitsBlock" => {
  eyebrow, heading, intro,
  cards[]{${cardProjection}},
  roiTitle, roiDescription,
  "roiFigures": roiFigures[]->{${claimProjection}},
  marketsTitle,
  markets[]{_key, icon, name, description, badge}
}`
