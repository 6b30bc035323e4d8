import { defineField, defineType, type SlugValue } from 'sanity'

import { SLUG_MAX_LENGTH } from '../lib/paths'
import { requiredString } from './objects'
import { articleSlugRule } from './path-rules'

// A subject articles are filed under; each has its page at /conteudos/categoria/<slug>.
export const categoryType = defineType({
  name: 'category',
  title: 'Categoria',
  type: 'document',
  description:
    'Um assunto dos artigos. Cada categoria tem a sua página em /conteudos/categoria/<endereço>.',
  fields: [
    requiredString('title', 'Nome', 60),
    defineField({
      name: 'slug',
      title: 'Endereço (slug)',
      description:
        'A página fica em /conteudos/categoria/<endereço>. Minúsculas, números e hífens.',
      type: 'slug',
      options: { source: 'title', maxLength: SLUG_MAX_LENGTH, isUnique: () => true },
      validation: (rule) =>
        rule
          .required()
          .custom((slug, context) =>
            articleSlugRule('category', (slug as SlugValue | undefined)?.current, context),
          )
          .error(),
    }),
    defineField({
      name: 'description',
      title: 'Descrição',
      description: 'Uma ou duas frases: aparece no topo da página da categoria e nos buscadores.',
      type: 'text',
      rows: 3,
      validation: (rule) => rule.required().max(200),
    }),
  ],
  preview: {
    select: { title: 'title', slug: 'slug.current' },
    prepare: ({ title, slug }) => ({ title, subtitle: `/conteudos/categoria/${slug ?? ''}` }),
  },
})
