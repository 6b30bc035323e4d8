import { defineArrayMember, defineField, defineType } from 'sanity'

import { articlePath } from '../lib/paths'
import { ctaTextFields, imageField, requiredString, seoField } from './objects'
import { routedSlugField } from './path-rules'
import { textBlock, textImage } from './portable-text'
import { pageVisibilityFields, VISIBILITY_GROUP, visibilitySubtitle } from './visibility'

// An article at /conteudos/<slug>: the listing, its categories' pages, the feed and the sitemap
// show it seconds after publishing (docs/articles.md).

/** A call to the demo form inside the text: it always leads to the home page's form. */
export const articleCtaType = defineType({
  name: 'articleCta',
  title: 'Chamada para a demonstração',
  type: 'object',
  description: 'Um destaque com um botão que leva ao formulário de demonstração (/#contato).',
  fields: [
    ...ctaTextFields,
    defineField({
      name: 'label',
      title: 'Texto do botão',
      type: 'string',
      initialValue: 'Solicitar Demonstração',
      validation: (rule) => rule.required().max(40),
    }),
  ],
  preview: {
    select: { title: 'heading' },
    prepare: ({ title }: { title?: string }) => ({
      title,
      subtitle: 'Chamada para a demonstração',
    }),
  },
})

/** A marketing figure inside the text, referenced, so "98,5%" stays one document everywhere. */
export const claimFigureType = defineType({
  name: 'claimFigure',
  title: 'Número de marketing',
  type: 'object',
  description: 'Mostra um dos Números de marketing (valor, rótulo e fonte) em destaque.',
  fields: [
    defineField({
      name: 'claim',
      title: 'Número',
      type: 'reference',
      to: [{ type: 'claim' }],
      validation: (rule) => rule.required(),
    }),
  ],
  preview: {
    select: { value: 'claim.value', label: 'claim.label' },
    prepare: ({ value, label }: { value?: string; label?: string }) => ({
      title: value ? `${value} · ${label ?? ''}` : 'Número de marketing',
      subtitle: 'Número de marketing',
    }),
  },
})

export const articleType = defineType({
  name: 'article',
  title: 'Artigo',
  type: 'document',
  description:
    'Um artigo em /conteudos/<endereço>. Publicar o coloca no ar, na lista, nas categorias, no feed e no mapa do site em segundos.',
  groups: [
    { name: 'content', title: 'Conteúdo', default: true },
    { name: 'seo', title: 'SEO e compartilhamento' },
    VISIBILITY_GROUP,
  ],
  fields: [
    { ...requiredString('title', 'Título (o h1 do artigo)', 110), group: 'content' },
    routedSlugField('article', {
      description:
        'O artigo fica em /conteudos/<endereço>. Ao mudar o endereço de um artigo publicado, o redirecionamento do antigo é criado ao publicar.',
      group: 'content',
    }),
    defineField({
      name: 'description',
      title: 'Resumo',
      description:
        'Uma ou duas frases: aparece na lista de conteúdos, no feed e como descrição para os buscadores.',
      group: 'content',
      type: 'text',
      rows: 3,
      validation: (rule) => rule.required().min(50).max(170),
    }),
    {
      ...imageField('cover', 'Imagem de capa (opcional)', {
        description:
          'Aparece no topo do artigo e, cortada em 1200 × 630 px ao redor do hotspot, ao compartilhar. Sem capa, o cartão de compartilhamento é gerado com o título.',
      }),
      group: 'content',
    },
    defineField({
      name: 'categories',
      title: 'Categorias',
      description: 'A primeira é a principal (aparece no caminho de navegação).',
      group: 'content',
      type: 'array',
      of: [defineArrayMember({ type: 'reference', to: [{ type: 'category' }] })],
      validation: (rule) => rule.required().min(1).max(3).unique(),
    }),
    defineField({
      name: 'author',
      title: 'Autor',
      group: 'content',
      type: 'reference',
      to: [{ type: 'author' }],
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'publishedAt',
      title: 'Data de publicação',
      description: 'Os artigos são listados do mais novo para o mais antigo por esta data.',
      group: 'content',
      type: 'datetime',
      initialValue: () => new Date().toISOString(),
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'body',
      title: 'Texto',
      group: 'content',
      type: 'array',
      of: [
        // The title is the h1; the text's sections are h2 (they make the table of contents).
        textBlock({
          styles: [
            { title: 'Parágrafo', value: 'normal' },
            { title: 'Seção (h2)', value: 'h2' },
            { title: 'Subseção (h3)', value: 'h3' },
            { title: 'Citação', value: 'blockquote' },
          ],
          linkDescription:
            'Um caminho do site ("/conteudos/outro-artigo"), "/#contato", https:// ou mailto:.',
        }),
        textImage({ caption: true }),
        defineArrayMember({ type: 'articleCta' }),
        defineArrayMember({ type: 'faqBlock' }),
        defineArrayMember({ type: 'claimFigure' }),
      ],
      validation: (rule) => rule.required().min(1),
    }),
    defineField({
      name: 'material',
      title: 'Material ao fim do artigo (opcional)',
      description:
        'Um material gratuito oferecido depois do texto: capa, título, descrição e um botão para a página dele.',
      group: 'content',
      type: 'reference',
      to: [{ type: 'material' }],
    }),
    seoField({
      group: 'seo',
      descriptionRequired: false,
      descriptionFallback: 'Sem ela, vale o resumo.',
      shareImageFallback: 'Sem ela, vale a capa; sem capa, um cartão com o título.',
      noindexDescription:
        'O artigo fica no ar e na lista, mas fora do mapa do site e dos buscadores.',
    }),
    // Optional start and end: the article goes live and away by itself, from its page and from
    // every list, the feed and the sitemap (lib/content/visibility.ts, docs/articles.md).
    ...pageVisibilityFields({
      group: VISIBILITY_GROUP.name,
      noun: 'o artigo',
      gender: 'm',
      pathOf: articlePath,
    }),
  ],
  orderings: [
    {
      title: 'Publicação (mais novos primeiro)',
      name: 'publishedAtDesc',
      by: [{ field: 'publishedAt', direction: 'desc' }],
    },
  ],
  preview: {
    select: {
      title: 'title',
      slug: 'slug.current',
      media: 'cover',
      date: 'publishedAt',
      visibleFrom: 'visibleFrom',
      visibleUntil: 'visibleUntil',
    },
    // The list shows each article's state (Agendado, No ar, Encerrado) when it has a window.
    prepare: ({ title, slug, media, date, visibleFrom, visibleUntil }) => {
      const state = visibilitySubtitle({ visibleFrom, visibleUntil }, 'm')
      return {
        title,
        media,
        subtitle: `${state ? `${state} · ` : ''}/conteudos/${slug ?? ''}${date ? ` · ${String(date).slice(0, 10)}` : ''}`,
      }
    },
  },
})
