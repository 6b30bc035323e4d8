import { defineArrayMember, defineField } from 'sanity'

import { ALT_MAX_LENGTH } from './objects'

// The one Portable Text definition: the text of the rich-text block, of articles and of legal
// pages. Each says which styles and decorators it allows and what its links may point to; the
// lists, the link annotation and its validation are the same everywhere.

type Option = { title: string; value: string }

const LISTS: Option[] = [
  { title: 'Lista', value: 'bullet' },
  { title: 'Lista numerada', value: 'number' },
]

const BOLD: Option = { title: 'Negrito', value: 'strong' }
const ITALIC: Option = { title: 'Itálico', value: 'em' }

/** A link inside the text: a path of the site, https:// or mailto:, and "#section" if `anchors`. */
function linkAnnotation({ description, anchors }: { description: string; anchors: boolean }) {
  const pattern = anchors ? /^(https:\/\/|\/|#|mailto:)/ : /^(https:\/\/|\/|mailto:)/
  return defineArrayMember({
    name: 'link',
    title: 'Link',
    type: 'object',
    fields: [
      defineField({
        name: 'href',
        title: 'Endereço',
        description,
        type: 'string',
        validation: (rule) =>
          rule.required().max(300).regex(pattern, { name: 'caminho, https:// ou mailto:' }),
      }),
    ],
  })
}

/** The `block` member of a Portable Text array: paragraphs, `styles`, lists, bold, links. */
export function textBlock({
  styles,
  italic = true,
  linkDescription,
  anchors = true,
}: {
  /** The paragraph first; the headings the text may use (the page's own h1 is never one). */
  styles: Option[]
  italic?: boolean
  /** The link field's help, with an example of where this text links to. */
  linkDescription: string
  /** Whether a link may be "#section" of the same page. */
  anchors?: boolean
}) {
  return defineArrayMember({
    type: 'block',
    styles,
    lists: LISTS,
    marks: {
      decorators: italic ? [BOLD, ITALIC] : [BOLD],
      annotations: [linkAnnotation({ description: linkDescription, anchors })],
    },
  })
}

/** An image inside the text, with its required alt text and, where asked, a caption. */
export function textImage({ caption = false }: { caption?: boolean } = {}) {
  return defineArrayMember({
    type: 'image',
    name: 'image',
    title: 'Imagem',
    options: { hotspot: true },
    fields: [
      defineField({
        name: 'alt',
        title: 'Texto alternativo',
        description: 'Em português: o que a imagem mostra, para quem não pode vê-la.',
        type: 'string',
        validation: (rule) => [
          rule.required().error('Descreva a imagem: o texto alternativo é obrigatório.'),
          rule.max(ALT_MAX_LENGTH),
        ],
      }),
      ...(caption
        ? [
            defineField({
              name: 'caption',
              title: 'Legenda (opcional)',
              type: 'string',
              validation: (rule) => rule.max(200),
            }),
          ]
        : []),
    ],
  })
}
