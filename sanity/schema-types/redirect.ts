import { defineField, defineType } from 'sanity'

import { redirectRule } from './path-rules'

// Old links keep working after a page changes address: the site answers the old path with a
// redirect (app/[slug] and app/p/[slug]), live seconds after publishing, with no deploy.
export const redirectType = defineType({
  name: 'redirect',
  title: 'Redirecionamento',
  type: 'document',
  description:
    'Leva um endereço antigo a um novo. Não pode formar ciclos nem cadeias (A → B → C): aponte sempre direto para o destino final.',
  fields: [
    defineField({
      name: 'from',
      title: 'De (endereço antigo)',
      description: 'Um caminho do site: "/onibus" ou "/p/endereco-antigo".',
      type: 'string',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'to',
      title: 'Para (endereço novo)',
      description: 'Um caminho do site ("/p/onibus-rodoviarios") ou um endereço https://.',
      type: 'string',
      validation: (rule) => rule.required().max(300),
    }),
    defineField({
      name: 'permanent',
      title: 'Permanente',
      description:
        'Ligado (308): os buscadores passam a usar o endereço novo. Desligado (307): temporário, para uma campanha que volta.',
      type: 'boolean',
      initialValue: true,
      validation: (rule) => rule.required(),
    }),
  ],
  // On the document, so the message can name both ends and the other redirects involved.
  validation: (rule) =>
    rule.custom((document, context) =>
      redirectRule(document as { from?: string; to?: string } | undefined, context),
    ),
  preview: {
    select: { from: 'from', to: 'to', permanent: 'permanent' },
    prepare: ({ from, to, permanent }) => ({
      title: `${from ?? '?'} → ${to ?? '?'}`,
      subtitle: permanent === false ? 'Temporário (307)' : 'Permanente (308)',
    }),
  },
})
