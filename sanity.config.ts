'use client'

import { ptBRLocale } from '@sanity/locale-pt-br'
import { visionTool } from '@sanity/vision'
import { defineConfig, defineLocaleResourceBundle } from 'sanity'
import { defineDocuments, defineLocations, presentationTool } from 'sanity/presentation'
import { structureTool } from 'sanity/structure'

import { apiVersion, dataset, projectId } from './sanity/env'
import { variantId } from './lib/experiments/ids'
import { PREVIEW_VARIANT_PARAM } from './lib/experiments/variants'
import { documentPath, ROUTED_TYPE_LIST, routedPath } from './sanity/lib/routed-type-rules'
import { performanceTool } from './sanity/performance'
import { schemaTypes } from './sanity/schema-types'
import {
  defaultDocumentNode,
  singletonDocumentActions,
  structure,
  withoutSingletonNewDocumentOptions,
  withoutSingletonTemplates,
} from './sanity/structure'

// Only a default export here: named exports make `sanity schema extract` see an empty schema,
// which is why project id, dataset and API version live in sanity/env.ts.

// The home page shows the singletons and the figures (previewed at /preview, the home page with
// the click-to-edit overlay: see app/preview/page.tsx); a routed type with `studio.preview` is
// previewed at /preview<its path> (app/preview<prefix>/[slug]), drafts and unpublished ones
// included. Its author and categories show on every article that uses them.
const homePage = defineLocations({
  locations: [{ title: 'Página inicial', href: '/preview' }],
})

// An experiment is previewed on its page, one location a variant (?variante=, app/preview).
const experimentVariants = defineLocations({
  select: {
    key: 'key.current',
    variants: 'variants',
    pageType: 'page._type',
    pageSlug: 'page.slug.current',
  },
  resolve: (doc) => {
    const path =
      doc?.pageType === 'landingPage' ? '' : documentPath(doc?.pageType ?? '', doc?.pageSlug)
    if (path === undefined || !doc?.key) return { locations: [] }
    const variants = (doc.variants ?? []) as { key?: string; label?: string }[]
    return {
      locations: variants.flatMap((variant) =>
        variant.key
          ? [
              {
                title: `Versão: ${variant.label || variant.key}`,
                href: `/preview${path}?${PREVIEW_VARIANT_PARAM}=${variantId(doc.key, variant.key)}`,
              },
            ]
          : [],
      ),
    }
  },
})

/** The Releases tool's name in the top bar and on its own page. */
const RELEASES_TITLE = 'Lançamentos'

const PREVIEWED = ROUTED_TYPE_LIST.flatMap((routed) =>
  routed.documentType && routed.studio?.preview
    ? [{ ...routed, documentType: routed.documentType }]
    : [],
)

export default defineConfig({
  name: 'default',
  title: 'Vigia',
  basePath: '/studio',
  // The CLI (schema extract, typegen) needs a syntactically valid id even with no project set.
  projectId: projectId || 'unconfigured',
  dataset,
  // Sign in with a token kept by the Studio (localStorage) rather than Sanity's cookie: the
  // Desempenho tool sends that token to /api/analytics, which checks it with Sanity (users/me).
  // docs/performance.md says why and what an editor notices.
  auth: { loginMethod: 'token' },
  schema: { types: schemaTypes, templates: withoutSingletonTemplates },
  document: {
    newDocumentOptions: withoutSingletonNewDocumentOptions,
    actions: singletonDocumentActions,
  },
  // Vision, a GROQ console for developers, only in administrators' top bar (issue 52): editors
  // never need it, and it sat between Conteúdo and Desempenho for everyone.
  // Sanity names its Releases tool in English whatever the locale; editors use it to publish
  // changes at a set time (docs/editors.md), so it stays, named in Portuguese.
  tools: (tools, { currentUser }) =>
    tools
      .filter(
        (tool) =>
          tool.name !== 'vision' ||
          currentUser?.roles.some((role) => role.name === 'administrator'),
      )
      .map((tool) => (tool.name === 'releases' ? { ...tool, title: RELEASES_TITLE } : tool)),
  i18n: {
    bundles: [
      defineLocaleResourceBundle({
        locale: 'pt-BR',
        namespace: 'releases',
        resources: { 'overview.title': RELEASES_TITLE },
      }),
    ],
  },
  plugins: [
    structureTool({ structure, defaultDocumentNode, title: 'Conteúdo' }),
    // Live preview of drafts on the site itself, embedded next to the editor.
    presentationTool({
      title: 'Pré-visualização',
      previewUrl: {
        // /preview is the home page plus the click-to-edit overlay (see app/preview/page.tsx).
        initial: '/preview',
        previewMode: { enable: '/api/draft-mode/enable' },
      },
      resolve: {
        mainDocuments: defineDocuments([
          { route: ['/', '/preview'], type: 'landingPage' },
          ...PREVIEWED.map(({ prefix, documentType }) => ({
            route: [`${prefix}/:slug`, `/preview${prefix}/:slug`],
            filter: `_type == "${documentType}" && slug.current == $slug`,
          })),
        ]),
        locations: {
          landingPage: homePage,
          experiment: experimentVariants,
          siteSettings: homePage,
          claim: homePage,
          ...Object.fromEntries(
            PREVIEWED.map(({ name, documentType }) => [
              documentType,
              defineLocations({
                select: { title: 'title', slug: 'slug.current' },
                resolve: (doc) => ({
                  locations: doc?.slug
                    ? [
                        {
                          title: doc.title || doc.slug,
                          href: `/preview${routedPath(name, doc.slug)}`,
                        },
                      ]
                    : [],
                }),
              }),
            ]),
          ),
        },
      },
    }),
    visionTool({ defaultApiVersion: apiVersion }),
    // Visits, leads and conversion by page, campaign and source (issue 36, docs/performance.md).
    performanceTool(),
    // The Studio's own interface (menus, document actions, Presentation, validation messages) in
    // Brazilian Portuguese, like the schema titles. The editor can still switch language in the
    // user menu; pt-BR is the first locale offered. https://www.sanity.io/plugins/locale-pt-br
    ptBRLocale(),
  ],
})
