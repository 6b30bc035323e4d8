import { defineField, defineType } from 'sanity'

import { ctaButtonFields, ctaTextFields } from '../../../sanity/schema-types/objects'
import { ctaLabelVariant, variantsField } from '../../../sanity/schema-types/variants'
import { blockPreview } from '../shared-schema'

export const ctaBandBlockType = defineType({
  name: 'ctaBandBlock',
  title: 'Faixa de chamada',
  description: 'Uma faixa de destaque com uma frase e um ou dois botões.',
  type: 'object',
  fields: [
    ...ctaTextFields,
    ...ctaButtonFields,
    variantsField('ctaBandVariant', 'Variante da faixa', [
      ctaLabelVariant('primaryCta.label'),
      {
        ...defineField({
          name: 'ctaHref',
          title: 'Endereço do botão principal (vazio: o original)',
          type: 'string',
          validation: (rule) =>
            rule.max(300).regex(/^(https?:\/\/|\/|#|mailto:)/, { name: 'link' }),
        }),
        path: 'primaryCta.href',
      },
    ]),
  ],
  preview: blockPreview('Faixa de chamada'),
})
