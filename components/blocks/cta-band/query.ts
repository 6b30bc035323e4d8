import { linkFields } from '../../../sanity/lib/fragments'

export const ctaBandBlockFragment = /* groq */ `_type == "ctaBandBlock" => {
  heading, text,
  primaryCta{${linkFields}},
  secondaryCta{${linkFields}}
}`
