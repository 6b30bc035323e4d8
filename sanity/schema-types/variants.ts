import { defineArrayMember, defineField, type FieldDefinition } from 'sanity'

import { imageField } from './objects'

/** A variant-able field: the entry's field (empty: the default) and the owner's field it replaces. */
export type VariantField = FieldDefinition & { path: string }

// A block (or the home page's hero) declares its variant-able fields here, as the personalization
// plugin marks them: each variant of an experiment on the page is one entry of `experimentVariants`
// beside the defaults. The owner's GROQ fragment projects an entry's `values` in the owner's own
// shape (lib/experiments/variants.ts merges them); "Tornar padrão" writes them at each `path`.
export function variantsField(type: string, title: string, fields: VariantField[]) {
  const field = defineField({
    name: 'experimentVariants',
    title: 'Variantes de experimento (opcional)',
    description:
      'Os valores de cada variante de um experimento nesta página (Experimentos). Só aparecem enquanto o experimento está no ar.',
    type: 'array',
    of: [
      defineArrayMember({
        name: type,
        title,
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
                    ? 'A variante "controle" é a página como está: edite os campos acima.'
                    : true,
                ),
          }),
          ...fields,
        ],
        preview: { select: { title: 'variant', subtitle: 'experiment.title' } },
      }),
    ],
    validation: (rule) =>
      rule.custom((value) => {
        const entries = (value ?? []) as { experiment?: { _ref?: string }; variant?: string }[]
        const seen = entries.map((entry) => `${entry.experiment?._ref}/${entry.variant}`)
        return new Set(seen).size === seen.length
          ? true
          : 'Cada variante aparece uma vez só: junte os campos numa entrada.'
      }),
  })
  return Object.assign(field, {
    variantPaths: Object.fromEntries(fields.map(({ name, path }) => [name, path])),
  })
}

/** A variant's text (empty: the default), replacing the owner's field at `path`. */
export const variantText = (
  name: string,
  title: string,
  max: number,
  path = name,
  type: 'string' | 'text' = 'string',
  pattern = /^/,
): VariantField => ({
  ...defineField({ name, title, type, validation: (rule) => rule.max(max).regex(pattern) }),
  path,
})

/** A button's label (the hero's, the CTA band's). */
export const ctaLabelVariant = (path: string) =>
  variantText('ctaLabel', 'Texto do botão principal (vazio: o original)', 32, path)

/** The hero's variant-able fields; the home page's hero keeps its button's label as a string. */
export const heroVariantFields = (ctaPath: string): VariantField[] => [
  variantText('headline', 'Título principal (vazio: o original)', 90),
  variantText('description', 'Descrição (vazio: a original)', 320, 'description', 'text'),
  ctaLabelVariant(ctaPath),
  { ...imageField('visual', 'Imagem (vazio: a original)'), path: 'visual' },
]
