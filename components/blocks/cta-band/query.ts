import { linkProjection } from '../../../sanity/lib/fragments'

export const ctaBandBlockFragment = /* groq */ `_type == "ctaBandBlock" => {
  heading, text,
  primaryCta{${linkProjection}},
  secondaryCta{${linkProjection}}
}`
