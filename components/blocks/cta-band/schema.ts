import { defineField, defineType } from 'sanity'

import { requiredString } from '../../../sanity/schema-types/objects'
import { blockPreview } from '../shared-schema'

export const ctaBandBlockType = defineType({
  name: 'ctaBandBlock',
  title: 'Faixa de chamada',
  description: 'Uma faixa de destaque com uma frase e um ou dois botões.',
  type: 'object',
  fields: [
    requiredString('heading', 'Título', 90),
    defineField({
      name: 'text',
      title: 'Texto (opcional)',
      type: 'text',
      rows: 2,
      validation: (rule) => rule.max(240),
    }),
    defineField({
      name: 'primaryCta',
      title: 'Botão principal',
      description: '"#contato" leva ao formulário desta página.',
      type: 'link',
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'secondaryCta', title: 'Botão secundário (opcional)', type: 'link' }),
  ],
  preview: blockPreview('Faixa de chamada'),
})
