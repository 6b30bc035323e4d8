import { defineField, defineType } from 'sanity'

import { requiredString } from './objects'
import { routedSlugField } from './path-rules'
import { textBlock } from './portable-text'

const REVIEW_NOTICE =
  'Texto jurídico: antes de publicar qualquer alteração, peça a revisão do advogado ou do jurídico responsável pela LGPD na empresa.'

// What a legal text may use: subheadings, lists, bold and links. No h1 (the page title is the
// only one), no italics, underline, code or images, so every page reads and looks the same.
const legalBodyBlock = textBlock({
  styles: [
    { title: 'Parágrafo', value: 'normal' },
    { title: 'Subtítulo', value: 'h2' },
    { title: 'Subtítulo menor', value: 'h3' },
  ],
  italic: false,
  linkDescription: 'Um caminho do site ("/privacidade"), uma URL https:// ou mailto:.',
  anchors: false,
})

type Block = {
  _type?: string
  style?: string
  listItem?: string
  children?: Array<{ _type?: string; marks?: string[] }>
  markDefs?: Array<{ _key?: string; _type?: string }>
}

// The editor enforces the lists above; these checks catch content arriving another way (an
// import, the API) with a style or mark the page would not render as intended.
function bodyProblem(blocks: unknown): string | true {
  if (!Array.isArray(blocks)) return true
  for (const [index, block] of (blocks as Block[]).entries()) {
    const where = `Bloco ${index + 1}`
    if (block._type !== 'block')
      return `${where}: só texto é permitido (sem imagens ou outros objetos).`
    if (!['normal', 'h2', 'h3'].includes(block.style ?? 'normal'))
      return `${where}: use só parágrafo, subtítulo (H2) ou subtítulo menor (H3).`
    if (block.listItem && !['bullet', 'number'].includes(block.listItem))
      return `${where}: use lista simples ou numerada.`
    const links = new Set(
      (block.markDefs ?? []).filter((def) => def._type === 'link').map((def) => def._key),
    )
    for (const span of block.children ?? []) {
      if (span._type !== 'span') return `${where}: só texto é permitido.`
      if ((span.marks ?? []).some((mark) => mark !== 'strong' && !links.has(mark)))
        return `${where}: só negrito e links são permitidos como formatação.`
    }
  }
  return true
}

export const legalPageType = defineType({
  name: 'legalPage',
  title: 'Página legal',
  type: 'document',
  description: REVIEW_NOTICE,
  fields: [
    requiredString('title', 'Título', 80),
    routedSlugField('legalPage', {
      description:
        'O caminho da página: "privacidade" vira /privacidade. Minúsculas, números e hífens. Mudar o endereço quebra links já publicados.',
      maxLength: 40,
    }),
    defineField({
      name: 'summary',
      title: 'Resumo',
      description: 'Duas ou três frases, mostradas logo abaixo do título.',
      type: 'text',
      rows: 3,
      validation: (rule) => rule.required().max(320),
    }),
    defineField({
      name: 'updatedAt',
      title: 'Última atualização',
      description: 'A data em que o texto mudou de fato; aparece no topo da página.',
      type: 'date',
      options: { dateFormat: 'DD/MM/YYYY' },
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'body',
      title: 'Texto',
      description: `${REVIEW_NOTICE} Permitidos: subtítulos (H2, H3), listas, negrito e links.`,
      type: 'array',
      of: [legalBodyBlock],
      validation: (rule) => rule.required().min(1).custom(bodyProblem),
    }),
    defineField({
      name: 'showDataProtectionContacts',
      title: 'Mostrar controlador e encarregado',
      description:
        'Mostra ao fim da página a razão social, o CNPJ e o encarregado pelo tratamento de dados, como estão em Configurações do site.',
      type: 'boolean',
      initialValue: false,
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'seoDescription',
      title: 'Descrição para buscadores',
      type: 'text',
      rows: 2,
      validation: (rule) => rule.required().max(170),
    }),
  ],
  orderings: [{ title: 'Título', name: 'title', by: [{ field: 'title', direction: 'asc' }] }],
  preview: {
    select: { title: 'title', slug: 'slug.current', date: 'updatedAt' },
    prepare: ({ title, slug, date }) => ({
      title,
      subtitle: `/${slug ?? ''}${date ? ` · atualizada em ${date}` : ''}`,
    }),
  },
})
