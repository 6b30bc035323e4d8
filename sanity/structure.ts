import type { DocumentActionsResolver, NewDocumentOptionsResolver, TemplateResolver } from 'sanity'
import type { DefaultDocumentNodeResolver, StructureResolver } from 'sanity/structure'

import { EndExperimentAction, PromoteVariantAction } from './actions/experiment-actions'
import { withOwnAddress } from './actions/duplicate-with-address'
import { withSlugChangeRedirect } from './actions/publish-with-redirect'
import { ReviewLinkAction } from './actions/review-link'
import { ROUTED_DOCUMENT_TYPES, ROUTED_TYPE_LIST, routedTypeOf } from './lib/routed-type-rules'
import { performanceView } from './performance'

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

type Group = NonNullable<(typeof ROUTED_TYPE_LIST)[number]['studio']>['group']

/** The routed types of one group (sanity/lib/routed-type-rules.ts), by their list's title. */
const routedItems = (S: Parameters<StructureResolver>[0], group: Group) =>
  ROUTED_TYPE_LIST.flatMap(({ documentType, studio }) =>
    documentType && studio?.group === group ? [{ documentType, studio }] : [],
  )
    .sort((a, b) => a.studio.title.localeCompare(b.studio.title, 'pt-BR'))
    .map(({ documentType, studio }) =>
      studio.ordering
        ? S.listItem()
            .title(studio.title)
            .id(documentType)
            .schemaType(documentType)
            .child(
              S.documentTypeList(documentType)
                .title(studio.title)
                .defaultOrdering([studio.ordering]),
            )
        : S.documentTypeListItem(documentType).title(studio.title),
    )

/** Types placed by hand below; every other one is listed at the end. */
const PLACED = ['claim', 'redirect', 'author', 'experiment', ...ROUTED_DOCUMENT_TYPES]

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
      ...routedItems(S, 'site'),
      S.divider(),
      // Pages marketing builds from blocks, and the redirects that keep old links working.
      ...routedItems(S, 'campaigns'),
      S.documentTypeListItem('redirect').title('Redirecionamentos'),
      // Which words bring leads: variants of a page's hero (docs/experiments.md).
      S.documentTypeListItem('experiment').title('Experimentos'),
      S.divider(),
      // Articles (/conteudos), and who signs them and what they are filed under.
      ...routedItems(S, 'articles'),
      S.documentTypeListItem('author').title('Autores'),
      ...S.documentTypeListItems().filter((item) => {
        const id = item.getId()
        return (
          id !== undefined &&
          ![...PLACED, ...INTERNAL_TYPES].includes(id) &&
          !SINGLETON_TYPES.has(id)
        )
      }),
    ])

/** A routed type with a Desempenho tab opens on its editor, with its page's figures beside it. */
export const defaultDocumentNode: DefaultDocumentNodeResolver = (S, { schemaType }) =>
  routedTypeOf(schemaType)?.studio?.performance
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
  // An experiment ends, or hands one variant to its page, by one action that publishes.
  if (context.schemaType === 'experiment')
    return [...actions, EndExperimentAction, PromoteVariantAction]
  // A redirectable routed type published under a new slug gets its redirect from the old one; an
  // editor can send the draft of one with review links to a reviewer without a Studio login.
  // A copy opens at an address of its own (duplicate-with-address.ts).
  const routed = routedTypeOf(context.schemaType)
  const withRedirect = actions.map((action) =>
    action.action === 'publish' && routed?.redirectable
      ? withSlugChangeRedirect(action, routed.name)
      : action.action === 'duplicate' && routed
        ? withOwnAddress(action)
        : action,
  )
  return routed?.studio?.reviewLinks ? [...withRedirect, ReviewLinkAction] : withRedirect
}
