import { defineArrayMember, defineField, defineType } from 'sanity'

import { requiredString } from '../../../sanity/schema-types/objects'
import { blockIntroFields, blockPreview } from '../shared-schema'

export const demoFormBlockType = defineType({
  name: 'demoFormBlock',
  title: 'Formulário de demonstração',
  description:
    'O mesmo formulário da página inicial, com os dados de contato de Configurações do site. Os pedidos registram de qual página vieram. Fica no endereço #contato da página.',
  type: 'object',
  fields: [
    ...blockIntroFields,
    requiredString('formTitle', 'Título do formulário', 60),
    defineField({
      name: 'detailsTitle',
      title: 'Título dos dados de contato (opcional)',
      type: 'string',
      validation: (rule) => rule.max(60),
    }),
    defineField({
      name: 'offerTitle',
      title: 'Título da lista "o que você recebe" (opcional)',
      type: 'string',
      validation: (rule) => rule.max(60),
    }),
    defineField({
      name: 'offers',
      title: 'O que o visitante recebe (opcional)',
      type: 'array',
      of: [defineArrayMember({ type: 'string', validation: (rule) => rule.max(80) })],
      validation: (rule) => rule.max(6),
    }),
    defineField({
      name: 'whatsappCta',
      title: 'Botão do WhatsApp (opcional)',
      type: 'string',
      validation: (rule) => rule.max(40),
    }),
  ],
  preview: blockPreview('Formulário de demonstração'),
})
