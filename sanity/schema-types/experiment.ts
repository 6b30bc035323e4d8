import { defineArrayMember, defineField, defineType } from 'sanity'

import { CONTROL } from '../../lib/experiments/ids'
import {
  experimentOverlapMessage,
  runningChangesWarning,
  variantsProblem,
  type ExperimentDocument,
} from '../../lib/experiments/rules'
import { describeVisibility, type VisibilityWindow } from '../../lib/content/visibility'
import { apiVersion } from '../env'
import { SLUG_PATTERN } from '../lib/paths'
import { windowFields } from './visibility'

// An experiment (docs/experiments.md): two or three variants of one page's variant-able fields
// (the home page or a campaign page), served to visitors by their weights while its window is
// open. The variants' values sit on the page, beside each field's default (the blocks'
// `experimentVariants`); this document says which page, which variants, how much traffic each
// gets, when, and what counts as a win.

type Context = {
  document?: unknown
  getClient: (options: { apiVersion: string }) => {
    fetch: (query: string, params: Record<string, unknown>, options?: object) => Promise<unknown>
  }
}

const doc = (context: { document?: unknown }) => (context.document ?? {}) as ExperimentDocument

// The published version and the other experiments, read with the editor's client.
async function publishedAndOthers(context: Context) {
  const current = doc(context)
  const id = (current._id ?? '').replace(/^drafts\./, '')
  const client = context.getClient({ apiVersion })
  return (await client.fetch(
    `{
      "published": *[_id == $id][0]{_id, page, visibleFrom, visibleUntil, variants},
      "others": *[_type == "experiment" && !(_id in [$id, "drafts." + $id]) && !(_id in path("versions.**"))]{_id, title, page, visibleFrom, visibleUntil, variants}
    }`,
    { id },
    { tag: 'validation.experiment' },
  )) as { published: ExperimentDocument | null; others: ExperimentDocument[] }
}

export const experimentType = defineType({
  name: 'experiment',
  title: 'Experimento',
  type: 'document',
  description:
    'Testa duas ou três versões de uma página (o destaque, o botão de uma faixa de chamada) e mostra qual traz mais leads.',
  validation: (rule) => [
    rule.custom(async (value, context) => {
      if (!value) return true
      const { others } = await publishedAndOthers(context as Context)
      return experimentOverlapMessage(value as ExperimentDocument, others) ?? true
    }),
    rule
      .custom(async (value, context) => {
        if (!value) return true
        const { published } = await publishedAndOthers(context as Context)
        return runningChangesWarning(published, value as ExperimentDocument) ?? true
      })
      .warning(),
  ],
  fields: [
    defineField({
      name: 'title',
      title: 'Nome do experimento',
      description: 'Para você e o time: "Título da campanha de ônibus: fadiga x acidentes".',
      type: 'string',
      validation: (rule) => rule.required().max(80),
    }),
    defineField({
      name: 'key',
      title: 'Identificador',
      description:
        'Aparece nos relatórios e nos leads ("<identificador>/<variante>"). Minúsculas, números e hífens; não mude depois de começar.',
      type: 'slug',
      options: { source: 'title', maxLength: 48 },
      validation: (rule) =>
        rule
          .required()
          .custom((value: { current?: string } | undefined) =>
            !value?.current || SLUG_PATTERN.test(value.current)
              ? true
              : 'Use só minúsculas sem acento, números e hífens (como "titulo-onibus").',
          ),
    }),
    defineField({
      name: 'page',
      title: 'Página',
      description:
        'A página inicial ou uma página de campanha. Um experimento por página de cada vez.',
      type: 'reference',
      to: [{ type: 'landingPage' }, { type: 'campaignPage' }],
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'goal',
      title: 'Objetivo principal',
      description: 'O que decide o vencedor.',
      type: 'string',
      options: {
        list: [
          { title: 'Leads (pedidos de demonstração)', value: 'leads' },
          { title: 'Cliques de contato (WhatsApp, e-mail, telefone)', value: 'contacts' },
        ],
        layout: 'radio',
      },
      initialValue: 'leads',
      validation: (rule) => rule.required(),
    }),
    ...windowFields({ noun: 'o experimento', gender: 'm' }),
    defineField({
      name: 'variants',
      title: 'Variantes',
      description: `Duas ou três. A primeira é sempre "${CONTROL}": a página como está. Os valores de cada variante ficam na própria página, nos blocos que os aceitam, em "Variantes de experimento". O peso é a fatia dos visitantes (1 e 1 = metade para cada).`,
      type: 'array',
      of: [
        defineArrayMember({
          type: 'object',
          name: 'experimentVariant',
          fields: [
            defineField({
              name: 'key',
              title: 'Chave',
              description: 'Minúsculas, números e hífens: "fadiga", "acidentes".',
              type: 'string',
              validation: (rule) => rule.required(),
            }),
            defineField({
              name: 'label',
              title: 'Nome',
              type: 'string',
              validation: (rule) => rule.required().max(60),
            }),
            defineField({
              name: 'weight',
              title: 'Peso',
              type: 'number',
              initialValue: 1,
              validation: (rule) => rule.required().integer().min(1).max(100),
            }),
          ],
          preview: {
            select: { title: 'label', key: 'key', weight: 'weight' },
            prepare: ({ title, key, weight }) => ({
              title: title ?? key,
              subtitle: `${key ?? '?'} · peso ${weight ?? '?'}`,
            }),
          },
        }),
      ],
      initialValue: [
        {
          _key: 'controle',
          _type: 'experimentVariant',
          key: CONTROL,
          label: 'Original',
          weight: 1,
        },
        { _key: 'b', _type: 'experimentVariant', key: 'b', label: 'Variante B', weight: 1 },
      ],
      validation: (rule) => rule.required().custom((value) => variantsProblem(value) ?? true),
    }),
  ],
  preview: {
    select: {
      title: 'title',
      key: 'key.current',
      page: 'page.title',
      visibleFrom: 'visibleFrom',
      visibleUntil: 'visibleUntil',
    },
    prepare: ({ title, key, page, visibleFrom, visibleUntil }) => ({
      title: title ?? key,
      subtitle: `${describeVisibility({ visibleFrom, visibleUntil } as VisibilityWindow, Date.now(), 'm')} · ${page ?? 'Página inicial'}`,
    }),
  },
})
