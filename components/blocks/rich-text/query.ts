import { imageProjection } from '../../../sanity/lib/fragments'

export const richTextBlockFragment = /* groq */ `_type == "richTextBlock" => {
  heading,
  body[]{
    ...,
    _type == "image" => {_type, _key, ${imageProjection}}
  }
}`
