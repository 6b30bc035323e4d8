import { defineType } from 'sanity'

import { ctaButtonFields, ctaTextFields } from '../../../sanity/schema-types/objects'
import { ctaLabelVariant, variantsField, variantText } from '../../../sanity/schema-types/variants'
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
      // A link as the link type allows it.
      variantText(
        'ctaHref',
        'Endereço do botão (vazio: o original)',
        300,
        'primaryCta.href',
        'string',
        /^(https?:\/\/|\/|#|mailto:)/,
      ),
    ]),
  ],
  preview: blockPreview('Faixa de chamada'),
})
