import { defineArrayMember, defineField } from 'sanity'

import { requiredString } from '../../sanity/schema-types/objects'

// Fields several blocks open with, as the home page's sections do: a short eyebrow, the heading
// (the section's h2) and an introduction. Only the heading is required.
export const blockIntroFields = [
  defineField({
    name: 'eyebrow',
    title: 'Chamada curta (opcional)',
    type: 'string',
    validation: (rule) => rule.max(40),
  }),
  requiredString('heading', 'Título', 90),
  defineField({
    name: 'intro',
    title: 'Introdução (opcional)',
    type: 'text',
    rows: 3,
    validation: (rule) => rule.max(320),
  }),
]

/** An array of cards (icon, title, text, optional figure), between `min` and `max` of them. */
export const cardsField = (name: string, title: string, min: number, max: number) =>
  defineField({
    name,
    title,
    type: 'array',
    of: [defineArrayMember({ type: 'featureCard' })],
    validation: (rule) => rule.required().min(min).max(max),
  })

/** The block's name and heading in the Studio's list of blocks. */
export const blockPreview = (kind: string, field = 'heading') => ({
  select: { title: field },
  prepare: ({ title }: { title?: string }) => ({ title: title ?? kind, subtitle: kind }),
})
