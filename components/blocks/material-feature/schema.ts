import { defineField, defineType } from 'sanity'

import { blockPreview } from '../shared-schema'

export const materialFeatureBlockType = defineType({
  name: 'materialFeatureBlock',
  title: 'Material em destaque',
  description:
    'A capa, o título e a descrição de um material, com um botão para a página dele (onde fica o formulário).',
  type: 'object',
  fields: [
    defineField({
      name: 'eyebrow',
      title: 'Chamada acima do título (opcional)',
      type: 'string',
      validation: (rule) => rule.max(40),
    }),
    defineField({
      name: 'material',
      title: 'Material',
      type: 'reference',
      to: [{ type: 'material' }],
      validation: (rule) => rule.required().error('Escolha o material a destacar.'),
    }),
    defineField({
      name: 'buttonLabel',
      title: 'Texto do botão',
      description: 'Vazio: "Quero o material".',
      type: 'string',
      validation: (rule) => rule.max(40),
    }),
  ],
  preview: blockPreview('Material em destaque', 'material.title'),
})
