import { cardProjection } from '../../../sanity/lib/fragments'

export const stepsBlockFragment = /* groq */ `_type == "stepsBlock" => {
  eyebrow, heading, intro,
  steps[]{${cardProjection}}
}`
