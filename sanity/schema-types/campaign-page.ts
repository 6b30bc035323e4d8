import { defineArrayMember, defineField, defineType } from 'sanity'

import { BLOCK_SCHEMA_TYPES } from '../../components/blocks/schemas'
import { requiredString, seoField } from './objects'
import { routedPath } from '../lib/routed-type-rules'
import { routedSlugField } from './path-rules'
import { pageVisibilityFields, VISIBILITY_GROUP, visibilitySubtitle } from './visibility'

type BlockItem = { _type?: string }

// The page's first block gives it its h1, and the form's anchor (#contato) must be unique.
function blocksProblem(blocks: unknown): string | true {
  if (!Array.isArray(blocks) || blocks.length === 0) return true
  const types = (blocks as BlockItem[]).map((block) => block._type)
  if (types[0] !== 'heroBlock')
    return 'O primeiro bloco precisa ser um Destaque: é ele que dá o título principal (h1) da página.'
  if (types.filter((type) => type === 'heroBlock').length > 1)
    return 'Use um só Destaque por página: a página tem um único título principal.'
  if (types.filter((type) => type === 'demoFormBlock').length > 1)
    return 'Use um só Formulário de demonstração por página (os botões "#contato" levam a ele).'
  return true
}

export const campaignPageType = defineType({
  name: 'campaignPage',
  title: 'Página de campanha',
  type: 'document',
  description:
    'Uma página montada com blocos, publicada em /p/<endereço>. Publicar a deixa no ar em segundos, sem desenvolvedor.',
  groups: [
    { name: 'content', title: 'Conteúdo', default: true },
    { name: 'seo', title: 'SEO e compartilhamento' },
    VISIBILITY_GROUP,
  ],
  fields: [
    {
      ...requiredString('title', 'Título (nome interno e da aba do navegador)', 80),
      group: 'content',
    },
    routedSlugField('campaignPage', {
      description:
        'A página fica em /p/<endereço>: "onibus-rodoviarios" vira /p/onibus-rodoviarios. Minúsculas, números e hífens. Ao mudar o endereço de uma página publicada, crie um redirecionamento do antigo.',
      group: 'content',
    }),
    defineField({
      name: 'blocks',
      title: 'Blocos',
      description: 'Adicione, reordene (arraste) e remova os blocos da página.',
      group: 'content',
      type: 'array',
      of: BLOCK_SCHEMA_TYPES.map((block) => defineArrayMember({ type: block.name })),
      validation: (rule) => rule.required().min(1).custom(blocksProblem),
    }),
    seoField({
      group: 'seo',
      descriptionRequired: true,
      shareImageFallback: 'Sem ela, vale a do site (Configurações do site → SEO).',
      noindexDescription:
        'Para campanhas pagas ou páginas de evento: a página fica no ar, mas fora do mapa do site e dos resultados de busca.',
    }),
    // Optional start and end: the page goes live and away by itself (lib/content/visibility.ts).
    ...pageVisibilityFields({ group: VISIBILITY_GROUP.name }),
  ],
  orderings: [{ title: 'Título', name: 'title', by: [{ field: 'title', direction: 'asc' }] }],
  preview: {
    select: {
      title: 'title',
      slug: 'slug.current',
      noindex: 'seo.noindex',
      visibleFrom: 'visibleFrom',
      visibleUntil: 'visibleUntil',
    },
    // The list shows each page's state (scheduled, live or ended) when it has a window.
    prepare: ({ title, slug, noindex, visibleFrom, visibleUntil }) => {
      const state = visibilitySubtitle({ visibleFrom, visibleUntil })
      return {
        title,
        subtitle: `${state ? `${state} · ` : ''}${routedPath('campaignPage', slug ?? '')}${noindex ? ' · fora dos buscadores' : ''}`,
      }
    },
  },
})
