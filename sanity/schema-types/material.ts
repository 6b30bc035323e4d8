import { defineArrayMember, defineField, defineType } from 'sanity'

import {
  MATERIAL_FIELD_TITLES,
  MATERIAL_OPTIONAL_FIELDS,
  type MaterialOptionalField,
} from '../../lib/validations/material-request-fields'
import { routedPath } from '../lib/routed-type-rules'
import { imageField, requiredString, seoField } from './objects'
import { routedSlugField } from './path-rules'
import { pageVisibilityFields, VISIBILITY_GROUP, visibilitySubtitle } from './visibility'

// A material (issue 65): an e-book, checklist or guide behind a short form at /materiais/<slug>.
// Its form's fields come from a fixed catalogue (lib/validations/material-request-fields.ts), so
// the site can validate, deliver and describe each one in the privacy policy; the server reads
// this document again when a form arrives and trusts nothing else the page says.

/** RD Station's conversion identifier: what its Leads > Conversões list shows. */
export const CONVERSION_IDENTIFIER_PATTERN = /^[a-z0-9]+([-_][a-z0-9]+)*$/
export const CONVERSION_IDENTIFIER_MAX = 100

const UNIQUE_IDENTIFIER_QUERY = /* groq */ `count(*[_type == "material" && !(_id in [$draft, $published]) && !(_id in path("versions.**")) && coalesce(conversionIdentifier, slug.current) == $identifier])`

type FieldChoice = { field?: string; required?: boolean; _key?: string }

function fieldsProblem(value: unknown): string | true {
  if (!Array.isArray(value)) return true
  const seen = new Set<string>()
  for (const choice of value as FieldChoice[]) {
    if (!choice.field || !MATERIAL_OPTIONAL_FIELDS.includes(choice.field as MaterialOptionalField))
      return 'Escolha um campo da lista.'
    if (seen.has(choice.field))
      return `O campo "${MATERIAL_FIELD_TITLES[choice.field as MaterialOptionalField]}" aparece duas vezes.`
    seen.add(choice.field)
  }
  return true
}

export const materialType = defineType({
  name: 'material',
  title: 'Material',
  type: 'document',
  description:
    'Um e-book, checklist ou guia que o visitante recebe depois de preencher um formulário curto. Publicado em /materiais/<endereço>.',
  groups: [
    { name: 'content', title: 'Conteúdo', default: true },
    { name: 'form', title: 'Formulário e entrega' },
    { name: 'seo', title: 'SEO e compartilhamento' },
    VISIBILITY_GROUP,
  ],
  fields: [
    { ...requiredString('title', 'Título', 90), group: 'content' },
    routedSlugField('material', {
      description:
        'O material fica em /materiais/<endereço>: "checklist-lgpd" vira /materiais/checklist-lgpd. Minúsculas, números e hífens.',
      group: 'content',
    }),
    defineField({
      name: 'description',
      title: 'Descrição curta',
      description: 'Uma ou duas frases: o que é e para quem é. Aparece na lista e no destaque.',
      type: 'text',
      rows: 3,
      group: 'content',
      validation: (rule) => rule.required().max(280),
    }),
    {
      ...imageField('cover', 'Capa', {
        required: true,
        description: 'A capa do material, mostrada na página, na lista e no destaque.',
      }),
      group: 'content',
    },
    defineField({
      name: 'learnings',
      title: 'O que você vai aprender',
      description: 'De 2 a 6 itens curtos, mostrados em lista ao lado do formulário.',
      type: 'array',
      group: 'content',
      of: [defineArrayMember({ type: 'string', validation: (rule) => rule.required().max(140) })],
      validation: (rule) => rule.required().min(2).max(6),
    }),
    defineField({
      name: 'file',
      title: 'Arquivo (PDF)',
      description:
        'O PDF que o visitante baixa. Ele nunca aparece na página: o link de download só é entregue depois do formulário e expira em 24 horas.',
      type: 'file',
      group: 'content',
      options: { accept: 'application/pdf' },
      validation: (rule) =>
        rule.custom((value, context) => {
          const doc = context.document as { externalUrl?: string } | undefined
          const hasFile = Boolean((value as { asset?: unknown } | undefined)?.asset)
          if (hasFile && doc?.externalUrl)
            return 'Use o arquivo ou o endereço externo, não os dois.'
          if (!hasFile && !doc?.externalUrl)
            return 'Envie o PDF ou informe o endereço externo do material.'
          return true
        }),
    }),
    defineField({
      name: 'externalUrl',
      title: 'Ou: endereço externo do arquivo',
      description:
        'Para um material hospedado em outro lugar (https://...). O site o entrega pelo próprio endereço, sem mostrar este link.',
      type: 'url',
      group: 'content',
      validation: (rule) => rule.uri({ scheme: ['https'] }),
    }),
    defineField({
      name: 'formFields',
      title: 'Campos do formulário',
      description:
        'Nome, e-mail e empresa são sempre pedidos. Escolha os outros campos e se cada um é obrigatório. Menos campos, mais downloads.',
      type: 'array',
      group: 'form',
      of: [
        defineArrayMember({
          type: 'object',
          name: 'materialFormField',
          title: 'Campo',
          fields: [
            defineField({
              name: 'field',
              title: 'Campo',
              type: 'string',
              options: {
                list: MATERIAL_OPTIONAL_FIELDS.map((value) => ({
                  value,
                  title: MATERIAL_FIELD_TITLES[value],
                })),
              },
              validation: (rule) => rule.required(),
            }),
            defineField({
              name: 'required',
              title: 'Obrigatório',
              type: 'boolean',
              initialValue: false,
            }),
          ],
          preview: {
            select: { field: 'field', required: 'required' },
            prepare: ({ field, required }) => ({
              title: MATERIAL_FIELD_TITLES[field as MaterialOptionalField] ?? field,
              subtitle: required ? 'Obrigatório' : 'Opcional',
            }),
          },
        }),
      ],
      validation: (rule) => rule.max(MATERIAL_OPTIONAL_FIELDS.length).custom(fieldsProblem),
    }),
    defineField({
      name: 'conversionIdentifier',
      title: 'Identificador da conversão',
      description:
        'O nome da conversão no RD Station e no webhook. Vazio: o endereço (slug). Minúsculas, números, hífens ou sublinhados; único entre os materiais. Mudar depois separa as conversões antigas das novas no RD Station.',
      type: 'string',
      group: 'form',
      validation: (rule) =>
        rule.custom(async (value, context) => {
          const doc = context.document as { slug?: { current?: string } } | undefined
          const identifier = value ?? doc?.slug?.current
          if (!identifier) return true
          if (identifier.length > CONVERSION_IDENTIFIER_MAX)
            return `Use no máximo ${CONVERSION_IDENTIFIER_MAX} caracteres.`
          if (!CONVERSION_IDENTIFIER_PATTERN.test(identifier))
            return 'Use minúsculas sem acento, números, hífens ou sublinhados (como "checklist-lgpd").'
          const id = (context.document?._id ?? '').replace(/^drafts\./, '')
          const others = await context
            .getClient({ apiVersion: '2025-02-19' })
            .fetch<number>(
              UNIQUE_IDENTIFIER_QUERY,
              { identifier, draft: `drafts.${id}`, published: id },
              { tag: 'validation.material-identifier' },
            )
          return others > 0 ? `Outro material já usa o identificador "${identifier}".` : true
        }),
    }),
    defineField({
      name: 'notifySales',
      title: 'Avisar a equipe comercial por e-mail',
      description:
        'Marque se quem baixa este material deve ser tratado como contato de vendas. O RD Station e o webhook recebem a conversão de qualquer forma.',
      type: 'boolean',
      group: 'form',
      initialValue: false,
    }),
    defineField({
      name: 'confirmation',
      title: 'Texto de confirmação',
      description: 'Mostrado depois do envio, acima do link "Baixar".',
      type: 'text',
      rows: 3,
      group: 'form',
      validation: (rule) => rule.required().max(400),
    }),
    seoField({
      group: 'seo',
      descriptionRequired: false,
      descriptionFallback: 'Sem ela, vale a descrição curta.',
      shareImageFallback: 'Sem ela, vale a capa.',
      noindexDescription:
        'O material fica no ar, mas fora do mapa do site e dos resultados de busca (por exemplo, um material só de campanha paga).',
    }),
    ...pageVisibilityFields({
      group: VISIBILITY_GROUP.name,
      noun: 'o material',
      gender: 'm',
      pathOf: (slug) => routedPath('material', slug),
    }),
  ],
  orderings: [{ title: 'Título', name: 'title', by: [{ field: 'title', direction: 'asc' }] }],
  preview: {
    select: {
      title: 'title',
      slug: 'slug.current',
      media: 'cover',
      visibleFrom: 'visibleFrom',
      visibleUntil: 'visibleUntil',
    },
    prepare: ({ title, slug, media, visibleFrom, visibleUntil }) => {
      const state = visibilitySubtitle({ visibleFrom, visibleUntil })
      return {
        title,
        media,
        subtitle: `${state ? `${state} · ` : ''}${routedPath('material', slug ?? '')}`,
      }
    },
  },
})
