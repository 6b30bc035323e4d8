import { defineField, defineType } from 'sanity'

import { requiredString } from './objects'
import { visibilitySubtitle, windowFields } from './visibility'

/** The announcement's one document id (the site's query and the Studio's structure use it). */
export const ANNOUNCEMENT_ID = 'announcement'

/** At most this many characters: two lines on a 375 px phone, one on a laptop. */
export const ANNOUNCEMENT_TEXT_MAX = 90

export const ANNOUNCEMENT_TONES = [
  { title: 'Informativo', value: 'informativo' },
  { title: 'Destaque', value: 'destaque' },
] as const

// The site-wide announcement bar, shown above the header of every page while it is published and
// inside its optional window (components/announcement-bar.tsx). One at a time: a single document,
// edited, scheduled or unpublished in place.
export const announcementType = defineType({
  name: 'announcement',
  title: 'Aviso no topo do site',
  type: 'document',
  // No title above the form: a never-created announcement has no preview to title it, and Sanity
  // then shows "Sem título"; the pane's own header already names it (issue 52).
  __experimental_formPreviewTitle: false,
  description:
    'Uma faixa acima do cabeçalho em todas as páginas. O visitante pode fechá-la; ela volta a aparecer quando o aviso for alterado.',
  fields: [
    requiredString(
      'text',
      'Texto',
      ANNOUNCEMENT_TEXT_MAX,
      `Curto: no máximo ${ANNOUNCEMENT_TEXT_MAX} caracteres (duas linhas no celular).`,
    ),
    defineField({
      name: 'link',
      title: 'Link (opcional)',
      description: 'Por exemplo "Saiba mais" levando a /p/feira-2026.',
      type: 'link',
    }),
    defineField({
      name: 'tone',
      title: 'Tom',
      type: 'string',
      options: { list: [...ANNOUNCEMENT_TONES], layout: 'radio', direction: 'horizontal' },
      initialValue: 'informativo',
      validation: (rule) => rule.required(),
    }),
    ...windowFields({ noun: 'o aviso', gender: 'm' }),
  ],
  preview: {
    select: { title: 'text', visibleFrom: 'visibleFrom', visibleUntil: 'visibleUntil' },
    // Its own name until it has a text: its editor read "Sem título" (issue 52).
    prepare: ({ title, visibleFrom, visibleUntil }) => ({
      title: title || 'Aviso no topo do site',
      subtitle:
        visibilitySubtitle({ visibleFrom, visibleUntil }, 'm') ?? 'No ar enquanto publicado',
    }),
  },
})
