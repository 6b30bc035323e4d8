import { defineArrayMember, defineField, defineType } from 'sanity'

import { imageField } from './objects'

// The variants' values beside the hero's own fields (the defaults), as the personalization plugin
// keeps them: one entry per variant of an experiment on this page, each field optional (empty:
// the variant shows the default). Added beside the existing fields rather than wrapping each in an
// object, so every page and the bundled dataset keep their shape (docs/experiments.md).
export const heroVariantType = defineType({
  name: 'heroVariant',
  title: 'Variante do destaque',
  type: 'object',
  fields: [
    defineField({
      name: 'experiment',
      title: 'Experimento',
      type: 'reference',
      to: [{ type: 'experiment' }],
      // The experiment may still be a draft while the editor writes its variants.
      weak: true,
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'variant',
      title: 'Chave da variante',
      description:
        'A chave definida no experimento, como "fadiga" (a original, "controle", usa os campos acima).',
      type: 'string',
      validation: (rule) =>
        rule
          .required()
          .custom((value) =>
            value === 'controle'
              ? 'A variante "controle" é a página como está: edite os campos do destaque acima.'
              : true,
          ),
    }),
    defineField({
      name: 'headline',
      title: 'Título principal (vazio: o original)',
      type: 'string',
      validation: (rule) => rule.max(90),
    }),
    defineField({
      name: 'description',
      title: 'Descrição (vazio: a original)',
      type: 'text',
      rows: 3,
      validation: (rule) => rule.max(320),
    }),
    defineField({
      name: 'ctaLabel',
      title: 'Texto do botão principal (vazio: o original)',
      type: 'string',
      validation: (rule) => rule.max(32),
    }),
    imageField('visual', 'Imagem (vazio: a original)'),
  ],
  preview: {
    select: { variant: 'variant', experiment: 'experiment.title', headline: 'headline' },
    prepare: ({ variant, experiment, headline }) => ({
      title: headline ?? '(título original)',
      subtitle: `${experiment ?? 'Experimento'} · ${variant ?? '?'}`,
    }),
  },
})

/** The hero's field holding its variants, after the defaults. */
export const heroVariantsField = defineField({
  name: 'experimentVariants',
  title: 'Variantes de experimento (opcional)',
  description:
    'Os textos e a imagem de cada variante de um experimento nesta página (Experimentos). Só aparecem enquanto o experimento está no ar.',
  type: 'array',
  of: [defineArrayMember({ type: 'heroVariant' })],
  validation: (rule) =>
    rule.custom((value) => {
      const entries = (value ?? []) as { experiment?: { _ref?: string }; variant?: string }[]
      const seen = entries.map((entry) => `${entry.experiment?._ref}/${entry.variant}`)
      return new Set(seen).size === seen.length
        ? true
        : 'Cada variante aparece uma vez só: junte os campos numa entrada.'
    }),
})
