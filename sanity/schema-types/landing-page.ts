import { defineArrayMember, defineField, defineType } from 'sanity'

import {
  claimListField,
  imageField,
  requiredString as string,
  requiredText as text,
} from './objects'
import { heroVariantFields, variantsField } from './variants'

// Every section opens the same way: a small eyebrow, the heading and an introduction.
const sectionIntro = [
  string('eyebrow', 'Chamada curta', 40),
  string('heading', 'Título', 90),
  text('intro', 'Introdução', 320),
  imageField('visual', 'Imagem da seção (opcional)', {
    description: 'Mostrada abaixo da introdução, na largura do texto.',
  }),
]

const cards = (name: string, title: string, count: number) =>
  defineField({
    name,
    title,
    type: 'array',
    of: [defineArrayMember({ type: 'featureCard' })],
    validation: (rule) => rule.required().length(count),
  })

export const landingPageType = defineType({
  name: 'landingPage',
  title: 'Página inicial',
  type: 'document',
  groups: [
    { name: 'hero', title: 'Destaque', default: true },
    { name: 'sobre', title: 'Sobre' },
    { name: 'comoFunciona', title: 'Como funciona' },
    { name: 'tecnologia', title: 'Tecnologia' },
    { name: 'beneficios', title: 'Benefícios' },
    { name: 'contato', title: 'Contato' },
  ],
  fields: [
    defineField({
      name: 'hero',
      title: 'Destaque',
      group: 'hero',
      type: 'object',
      fields: [
        string('eyebrow', 'Chamada curta', 60),
        string('headline', 'Título principal', 90),
        text('description', 'Descrição', 320),
        string('primaryCta', 'Botão principal', 32),
        string('secondaryCta', 'Botão secundário', 32),
        imageField('visual', 'Imagem do destaque', {
          required: true,
          description:
            'Ao lado do título no computador, abaixo dos números no celular. Uma foto ou captura do app; o ponto de interesse (hotspot) fica sempre visível.',
        }),
        {
          ...claimListField('stats', 'Números em destaque', 3),
          validation: (rule) => rule.required().length(3).unique(),
        },
        variantsField('heroVariant', 'Variante do destaque', heroVariantFields('primaryCta')),
      ],
    }),
    defineField({
      name: 'sobre',
      title: 'Sobre',
      group: 'sobre',
      type: 'object',
      fields: [...sectionIntro, cards('points', 'Diferenciais', 3)],
    }),
    defineField({
      name: 'comoFunciona',
      title: 'Como funciona',
      group: 'comoFunciona',
      type: 'object',
      fields: [...sectionIntro, cards('steps', 'Etapas', 4)],
    }),
    defineField({
      name: 'tecnologia',
      title: 'Tecnologia',
      group: 'tecnologia',
      type: 'object',
      fields: [
        ...sectionIntro,
        cards('cards', 'Recursos', 6),
        string('specTitle', 'Título do painel técnico', 60),
        claimListField('specs', 'Especificações técnicas', 8),
      ],
    }),
    defineField({
      name: 'beneficios',
      title: 'Benefícios',
      group: 'beneficios',
      type: 'object',
      fields: [
        ...sectionIntro,
        cards('cards', 'Benefícios', 6),
        string('roiTitle', 'Título do bloco de ROI', 60),
        text('roiDescription', 'Texto do bloco de ROI', 240, 2),
        claimListField('roiFigures', 'Números do ROI', 4),
        string('marketsTitle', 'Título dos mercados', 40),
        defineField({
          name: 'markets',
          title: 'Mercados atendidos',
          type: 'array',
          of: [defineArrayMember({ type: 'market' })],
          validation: (rule) => rule.required().max(4),
        }),
      ],
    }),
    defineField({
      name: 'contato',
      title: 'Contato',
      group: 'contato',
      type: 'object',
      fields: [
        ...sectionIntro,
        string('formTitle', 'Título do formulário', 60),
        string('detailsTitle', 'Título dos dados de contato', 60),
        string('offerTitle', 'Título da lista "o que você recebe"', 60),
        defineField({
          name: 'offers',
          title: 'O que o visitante recebe',
          type: 'array',
          of: [defineArrayMember({ type: 'string', validation: (rule) => rule.max(80) })],
          validation: (rule) => rule.required().max(6),
        }),
        string('whatsappCta', 'Botão do WhatsApp', 40),
      ],
    }),
  ],
  preview: { prepare: () => ({ title: 'Página inicial' }) },
})
