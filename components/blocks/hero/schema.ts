import { defineField, defineType } from 'sanity'

import {
  claimListField,
  ctaButtonFields,
  imageField,
  requiredString,
} from '../../../sanity/schema-types/objects'
import { heroVariantFields, variantsField } from '../../../sanity/schema-types/variants'
import { blockPreview } from '../shared-schema'

export const heroBlockType = defineType({
  name: 'heroBlock',
  title: 'Destaque',
  description: 'O topo da página, com o título principal (h1). Um por página, sempre o primeiro.',
  type: 'object',
  fields: [
    defineField({
      name: 'eyebrow',
      title: 'Chamada curta (opcional)',
      type: 'string',
      validation: (rule) => rule.max(60),
    }),
    requiredString('headline', 'Título principal', 90),
    defineField({
      name: 'description',
      title: 'Descrição',
      type: 'text',
      rows: 3,
      validation: (rule) => rule.required().max(320),
    }),
    ...ctaButtonFields,
    {
      ...claimListField('stats', 'Números em destaque', 3),
      description: 'Até três números de marketing: corrigir um número corrige em todo o site.',
    },
    imageField('visual', 'Imagem (opcional)', {
      description:
        'Ao lado do título no computador. Sem imagem, o bloco mostra a imagem do produto da página inicial.',
    }),
    variantsField('heroVariant', 'Variante do destaque', heroVariantFields('primaryCta.label')),
  ],
  preview: blockPreview('Destaque', 'headline'),
})
