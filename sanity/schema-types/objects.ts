import { defineArrayMember, defineField, defineType } from 'sanity'

import { ICON_NAMES } from '../lib/icon-names'

/** A required single-line text of at most `max` characters, so a long value cannot break the layout. */
export const requiredString = (name: string, title: string, max: number, description?: string) =>
  defineField({
    name,
    title,
    description,
    type: 'string',
    validation: (rule) => rule.required().max(max),
  })

/** A required multi-line text of at most `max` characters. */
export const requiredText = (name: string, title: string, max: number, rows = 3) =>
  defineField({
    name,
    title,
    type: 'text',
    rows,
    validation: (rule) => rule.required().max(max),
  })

const iconField = defineField({
  name: 'icon',
  title: 'Ícone',
  type: 'string',
  options: { list: ICON_NAMES.map((name) => ({ title: name, value: name })) },
  validation: (rule) => rule.required(),
})

// A card shared by sobre, como-funciona, tecnologia and beneficios: an icon, a title and a line.
export const featureCardType = defineType({
  name: 'featureCard',
  title: 'Cartão',
  type: 'object',
  fields: [
    iconField,
    defineField({
      name: 'title',
      title: 'Título',
      type: 'string',
      validation: (rule) => rule.required().max(60),
    }),
    defineField({
      name: 'description',
      title: 'Descrição',
      type: 'text',
      rows: 3,
      validation: (rule) => rule.required().max(240),
    }),
    defineField({
      name: 'claim',
      title: 'Número em destaque (opcional)',
      type: 'reference',
      to: [{ type: 'claim' }],
    }),
  ],
  preview: { select: { title: 'title', subtitle: 'description' } },
})

export const marketType = defineType({
  name: 'market',
  title: 'Mercado',
  type: 'object',
  fields: [
    iconField,
    defineField({
      name: 'name',
      title: 'Nome',
      type: 'string',
      validation: (rule) => rule.required().max(40),
    }),
    defineField({
      name: 'description',
      title: 'Descrição',
      type: 'string',
      validation: (rule) => rule.required().max(140),
    }),
    defineField({
      name: 'badge',
      title: 'Selo (opcional)',
      description: 'Por exemplo "Em breve" para um mercado de fase futura.',
      type: 'string',
      validation: (rule) => rule.max(24),
    }),
  ],
  preview: { select: { title: 'name', subtitle: 'description' } },
})

export const linkType = defineType({
  name: 'link',
  title: 'Link',
  type: 'object',
  fields: [
    defineField({
      name: 'label',
      title: 'Texto',
      type: 'string',
      validation: (rule) => rule.required().max(40),
    }),
    defineField({
      name: 'href',
      title: 'Endereço',
      description:
        'Uma URL completa, um caminho ("/privacidade") ou "#" enquanto a página não existe.',
      type: 'string',
      validation: (rule) =>
        rule
          .required()
          .max(300)
          .regex(/^(https?:\/\/|\/|#|mailto:)/, { name: 'link' }),
    }),
  ],
})

/** A call to action's words: a heading and an optional line (the CTA band, an article's call). */
export const ctaTextFields = [
  requiredString('heading', 'Título', 90),
  defineField({
    name: 'text',
    title: 'Texto (opcional)',
    type: 'text',
    rows: 2,
    validation: (rule) => rule.max(240),
  }),
]

/** A block's buttons (the hero, the CTA band): a required main one and an optional second. */
export const ctaButtonFields = [
  defineField({
    name: 'primaryCta',
    title: 'Botão principal',
    description: '"#contato" leva ao formulário desta página.',
    type: 'link',
    validation: (rule) => rule.required(),
  }),
  defineField({ name: 'secondaryCta', title: 'Botão secundário (opcional)', type: 'link' }),
]

export const claimListField = (name: string, title: string, max: number) =>
  defineField({
    name,
    title,
    type: 'array',
    of: [defineArrayMember({ type: 'reference', to: [{ type: 'claim' }] })],
    validation: (rule) => rule.max(max).unique(),
  })

/** How long an alt text may be: a sentence a screen reader reads in one breath. */
export const ALT_MAX_LENGTH = 160

/**
 * An image an editor manages: hotspot and crop in the Studio, and a required alt text in
 * Portuguese, the one a screen reader and a search engine get instead of the picture.
 */
export const imageField = (
  name: string,
  title: string,
  { required = false, description }: { required?: boolean; description?: string } = {},
) =>
  defineField({
    name,
    title,
    description,
    type: 'image',
    options: { hotspot: true },
    fields: [
      defineField({
        name: 'alt',
        title: 'Texto alternativo',
        description:
          'Em português: o que a imagem mostra, para quem não pode vê-la (leitores de tela, buscadores).',
        type: 'string',
        validation: (rule) => [
          rule.required().error('Descreva a imagem: o texto alternativo é obrigatório.'),
          rule.max(ALT_MAX_LENGTH),
        ],
      }),
    ],
    validation: (rule) =>
      required ? rule.required().error('Escolha uma imagem: este campo é obrigatório.') : rule,
  })

/**
 * A routed document's `seo` object (campaign pages, articles): its own title and description for
 * search engines, a share image and noindex. One definition, so the page and the article ask the
 * editor the same questions and the queries read the same shape (`seo{title, description,
 * noindex, shareImage}` in sanity/lib/queries.ts). Each caller says what stands in for an empty
 * description or share image, and whether the description is required.
 */
export const seoField = ({
  group,
  descriptionRequired,
  descriptionFallback,
  shareImageFallback,
  noindexDescription,
}: {
  group: string
  descriptionRequired: boolean
  /** Shown when the description is optional: what the page uses without it. */
  descriptionFallback?: string
  shareImageFallback: string
  noindexDescription: string
}) =>
  defineField({
    name: 'seo',
    title: 'SEO',
    group,
    type: 'object',
    options: { collapsible: false },
    fields: [
      defineField({
        name: 'title',
        title: 'Título para buscadores (opcional)',
        description: 'Sem ele: "<Título> | <marca>".',
        type: 'string',
        validation: (rule) => rule.max(70),
      }),
      defineField({
        name: 'description',
        title: descriptionRequired
          ? 'Descrição para buscadores'
          : 'Descrição para buscadores (opcional)',
        description: descriptionFallback,
        type: 'text',
        rows: 3,
        validation: (rule) => (descriptionRequired ? rule.required().max(170) : rule.max(170)),
      }),
      imageField('shareImage', 'Imagem de compartilhamento (opcional)', {
        description: `Cortada em 1200 × 630 px ao redor do hotspot. ${shareImageFallback}`,
      }),
      defineField({
        name: 'noindex',
        title: 'Esconder dos buscadores (noindex)',
        description: noindexDescription,
        type: 'boolean',
        initialValue: false,
      }),
    ],
    validation: (rule) => (descriptionRequired ? rule.required() : rule),
  })
