import { defineField } from 'sanity'

import {
  describeVisibility,
  SITE_TIME_ZONE,
  windowProblem,
  type NounGender,
  type VisibilityWindow,
} from '../../lib/content/visibility'
import { landingPath } from '../../lib/site-path'
import { campaignPath, REDIRECT_TO_PATTERN } from '../lib/paths'
import { SITE_PATH_MESSAGE } from './path-rules'

// The visibility window's fields, one set for every type that has a window (campaign pages and
// articles; the announcement bar uses the two dates: docs/campaigns.md).
// The site reads them with the `windowProjection` and `pageVisibilityProjection` GROQ fragments
// (sanity/lib/fragments.ts) and judges them in lib/content/visibility.ts.

/** The group a type with a window shows these fields in. */
export const VISIBILITY_GROUP = { name: 'visibility', title: 'Período no ar' }

const datetimeOptions = {
  // Editors schedule in Brasília time, whatever the time zone of their computer; the value is
  // stored in UTC. https://www.sanity.io/docs/studio/datetime-type
  displayTimeZone: SITE_TIME_ZONE,
  allowTimeZoneSwitch: false,
  dateFormat: 'DD/MM/YYYY',
  timeFormat: 'HH:mm',
  timeStep: 15,
}

/** Start and end, both optional; the end must come after the start. */
export function windowFields({
  group,
  noun = 'a página',
  gender = 'f',
}: { group?: string; noun?: string; gender?: NounGender } = {}) {
  const alone = gender === 'f' ? 'sozinha' : 'sozinho'
  const published = gender === 'f' ? 'publicada' : 'publicado'
  return [
    defineField({
      name: 'visibleFrom',
      title: 'Entra no ar em (opcional)',
      description: `Horário de Brasília. Antes disso ${noun} não aparece para ninguém, e entra no ar ${alone}, sem publicar de novo. Vazio: no ar assim que ${published}.`,
      type: 'datetime',
      group,
      options: datetimeOptions,
    }),
    defineField({
      name: 'visibleUntil',
      title: 'Sai do ar em (opcional)',
      description: `Horário de Brasília. A partir daí ${noun} some ${alone} (em até 30 segundos). Vazio: fica no ar.`,
      type: 'datetime',
      group,
      options: datetimeOptions,
      validation: (rule) =>
        rule.custom(
          (value, context) =>
            windowProblem({
              visibleFrom: (context.document as VisibilityWindow | undefined)?.visibleFrom,
              visibleUntil: value as string | undefined,
            }) ?? true,
        ),
    }),
  ]
}

/**
 * The window plus where a visitor goes outside it (pages and articles; the announcement has no
 * address). `pathOf` gives the document's own path from its slug, to refuse a redirect to itself.
 */
export function pageVisibilityFields({
  group,
  noun = 'a página',
  gender = 'f',
  pathOf = campaignPath,
}: {
  group?: string
  noun?: string
  gender?: NounGender
  pathOf?: (slug: string) => string
} = {}) {
  return [
    ...windowFields({ group, noun, gender }),
    defineField({
      name: 'hiddenRedirect',
      title: 'Fora do período, levar para (opcional)',
      description: `Um endereço do site (por exemplo "/" ou "/p/outra-campanha") ou https://... para onde o visitante vai antes do início e depois do fim. Vazio: ${noun} responde "não encontrad${gender === 'f' ? 'a' : 'o'}" (404).`,
      type: 'string',
      group,
      validation: (rule) =>
        rule.custom((value, context) => {
          if (!value) return true
          if (!REDIRECT_TO_PATTERN.test(value))
            return 'Use um endereço do site começando com "/" (como /p/outra-campanha) ou um endereço https://.'
          const landing = value.startsWith('/') ? landingPath(value) : undefined
          if (value.startsWith('/') && landing === undefined) return SITE_PATH_MESSAGE
          const slug = (context.document as { slug?: { current?: string } } | undefined)?.slug
            ?.current
          if (
            slug &&
            (landing ?? value.replace(/[?#].*$/, '').replace(/\/+$/, '')) === pathOf(slug)
          )
            return `O endereço precisa ser outro: levar ${noun} para ${gender === 'f' ? 'ela mesma' : 'ele mesmo'} criaria um ciclo.`
          return true
        }),
    }),
  ]
}

/** The list's subtitle part for a document with a window: "Agendada · entra no ar ...". */
export function visibilitySubtitle(
  window: VisibilityWindow,
  gender: NounGender = 'f',
): string | undefined {
  if (!window.visibleFrom && !window.visibleUntil) return undefined
  return describeVisibility(window, Date.now(), gender)
}
