import { defineField, defineType } from 'sanity'

import { roiClaimsWarning } from './roi-calculator'

// Every marketing figure on the page is one of these, referenced from wherever it is shown,
// so an edit to "98,5%" happens once and reaches the hero, the spec panel and the ROI block alike.
export const claimType = defineType({
  name: 'claim',
  title: 'Número de marketing',
  type: 'document',
  // A claim the savings calculator must reproduce (R$ 150 mil, 6 meses, 300%) warns when an edit
  // makes it disagree with the calculator's assumptions.
  validation: (rule) =>
    rule
      .custom((document, context) =>
        document?._id
          ? roiClaimsWarning(context, undefined, {
              id: document._id.replace(/^drafts\./, ''),
              value: typeof document.value === 'string' ? document.value : undefined,
            })
          : true,
      )
      .warning(),
  fields: [
    defineField({
      name: 'value',
      title: 'Valor',
      description: 'Como aparece na página, por exemplo "98,5%" ou "R$ 150 mil".',
      type: 'string',
      validation: (rule) => rule.required().max(16),
    }),
    defineField({
      name: 'label',
      title: 'Rótulo',
      description: 'O que o número mede, por exemplo "Precisão de detecção".',
      type: 'string',
      validation: (rule) => rule.required().max(60),
    }),
    defineField({
      name: 'sourceNote',
      title: 'Fonte ou nota',
      description: 'De onde vem o número (estudo, piloto, contrato). Mostrado como nota discreta.',
      type: 'text',
      rows: 2,
      validation: (rule) => rule.max(200),
    }),
  ],
  preview: {
    select: { title: 'value', subtitle: 'label' },
  },
})
