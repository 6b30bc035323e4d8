import type { DocumentActionsResolver, NewDocumentOptionsResolver, TemplateResolver } from 'sanity'
import type { DefaultDocumentNodeResolver, StructureResolver } from 'sanity/structure'

import { withSlugChangeRedirect } from './actions/publish-with-redirect'
import { ReviewLinkAction } from './actions/review-link'
import { PERFORMANCE_VIEW_TYPES, performanceView } from './performance'

// The landing page and the site settings exist exactly once, under fixed ids equal to their type
// (the bundled dataset and the site's queries use those ids).
export const SINGLETON_TYPES: ReadonlySet<string> = new Set([
  'landingPage',
  'siteSettings',
  'announcement',
  'roiCalculator',
])

// An editor can publish, discard and restore a singleton, never delete, duplicate or unpublish
// it: the page would lose its content.
const SINGLETON_ACTIONS: ReadonlySet<string> = new Set(['publish', 'discardChanges', 'restore'])
// The announcement can also be taken down at once (unpublished), its text kept for next time.
const ANNOUNCEMENT_ACTIONS: ReadonlySet<string> = new Set([...SINGLETON_ACTIONS, 'unpublish'])

const singleton = (S: Parameters<StructureResolver>[0], type: string, title: string) =>
  S.listItem()
    .title(title)
    .id(type)
    .schemaType(type)
    .child(S.document().schemaType(type).documentId(type).title(title))

export const structure: StructureResolver = (S) =>
  S.list()
    .title('Conteúdo')
    .items([
      singleton(S, 'landingPage', 'Página inicial'),
      singleton(S, 'siteSettings', 'Configurações do site'),
      singleton(S, 'announcement', 'Aviso no topo do site'),
      S.divider(),
      // Listed by their value and label (the claim type's preview).
      S.documentTypeListItem('claim').title('Números de marketing'),
      // The calculator's assumptions, which must reproduce the ROI figures above.
      singleton(S, 'roiCalculator', 'Premissas da calculadora de economia'),
      S.documentTypeListItem('legalPage').title('Páginas legais'),
      S.divider(),
      // Pages marketing builds from blocks, and the redirects that keep old links working.
      S.documentTypeListItem('campaignPage').title('Páginas de campanha'),
      S.documentTypeListItem('redirect').title('Redirecionamentos'),
      S.divider(),
      // Articles (/conteudos), newest first, and who signs them and what they are filed under.
      S.listItem()
        .title('Artigos')
        .id('article')
        .schemaType('article')
        .child(
          S.documentTypeList('article')
            .title('Artigos')
            .defaultOrdering([{ field: 'publishedAt', direction: 'desc' }]),
        ),
      S.documentTypeListItem('category').title('Categorias'),
      S.documentTypeListItem('author').title('Autores'),
      ...S.documentTypeListItems().filter((item) => {
        const id = item.getId()
        return (
          id !== undefined &&
          ![
            'claim',
            'legalPage',
            'campaignPage',
            'redirect',
            'article',
            'category',
            'author',
            ...INTERNAL_TYPES,
          ].includes(id) &&
          !SINGLETON_TYPES.has(id)
        )
      }),
    ])

/** A campaign page or an article opens on its editor, with its figures in a Desempenho tab. */
export const defaultDocumentNode: DefaultDocumentNodeResolver = (S, { schemaType }) =>
  PERFORMANCE_VIEW_TYPES.has(schemaType)
    ? S.document().views([S.view.form(), performanceView(S)])
    : S.document()

/**
 * Documents the Studio writes itself, never listed or created by hand: review links are made and
 * revoked from a campaign page's "Criar link de revisão" action.
 */
const INTERNAL_TYPES = ['reviewLink']

/** No "create new" template for a singleton or an internal type, anywhere in the Studio. */
export const withoutSingletonTemplates: TemplateResolver = (templates) =>
  templates.filter(
    (template) =>
      !SINGLETON_TYPES.has(template.schemaType) && !INTERNAL_TYPES.includes(template.schemaType),
  )

export const withoutSingletonNewDocumentOptions: NewDocumentOptionsResolver = (options) =>
  options.filter(
    (option) =>
      !SINGLETON_TYPES.has(option.templateId) && !INTERNAL_TYPES.includes(option.templateId),
  )

export const singletonDocumentActions: DocumentActionsResolver = (actions, context) => {
  if (context.schemaType === 'announcement')
    return actions.filter(
      (action) => action.action !== undefined && ANNOUNCEMENT_ACTIONS.has(action.action),
    )
  if (SINGLETON_TYPES.has(context.schemaType))
    return actions.filter(
      (action) => action.action !== undefined && SINGLETON_ACTIONS.has(action.action),
    )
  // A campaign page or an article published under a new slug gets its redirect from the old one;
  // an editor can send either's draft to a reviewer without a Studio login.
  if (context.schemaType === 'campaignPage' || context.schemaType === 'article') {
    const type = context.schemaType
    const withRedirect = actions.map((action) =>
      action.action === 'publish' ? withSlugChangeRedirect(action, type) : action,
    )
    return [...withRedirect, ReviewLinkAction]
  }
  return actions
}
