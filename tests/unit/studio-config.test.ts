import { createClient } from '@sanity/client'
import {
  createMockAuthStore,
  createWorkspaceFromConfig,
  type CurrentUser,
  type DocumentActionComponent,
  type Workspace,
} from 'sanity'
import { createStructureBuilder, type StructureBuilder } from 'sanity/structure'
import { beforeAll, describe, expect, it, vi } from 'vitest'

import * as studioConfigModule from '@/sanity.config'
import { defaultDocumentNode, structure } from '@/sanity/structure'

// The Studio's configuration, resolved the way the embedded Studio resolves it (a workspace with
// its tools, templates and document actions), with a signed-in administrator and no network.

const administrator: CurrentUser = {
  id: 'editor',
  name: 'Editor',
  email: 'editor@example.com',
  role: 'administrator',
  roles: [{ name: 'administrator', title: 'Administrator' }],
}

let workspace: Workspace

beforeAll(async () => {
  const client = createClient({
    projectId: 'test',
    dataset: 'production',
    apiVersion: '2025-09-01',
    useCdn: false,
  })
  workspace = await createWorkspaceFromConfig({
    ...studioConfigModule.default,
    projectId: 'test',
    auth: createMockAuthStore({ client, currentUser: administrator }),
  })
}, 60_000)

const source = () => workspace.unstable_sources[0]!

function actionsFor(schemaType: string) {
  return source()
    .document.actions({
      schemaType,
      documentId: schemaType,
      schema: source().schema,
      currentUser: administrator,
    } as unknown as Parameters<ReturnType<typeof source>['document']['actions']>[0])
    .map((action: DocumentActionComponent) => action.action)
}

describe('sanity.config.ts', () => {
  it('has only a default export (named exports make `sanity schema extract` see no schema)', () => {
    expect(Object.keys(studioConfigModule)).toEqual(['default'])
  })

  it('mounts the Studio at /studio with the structure, presentation and Vision tools', () => {
    expect(workspace.basePath).toBe('/studio')
    expect(workspace.tools.map((tool) => tool.name).slice(0, 3)).toEqual([
      'structure',
      'presentation',
      'vision',
    ])
  })

  it('shows Vision, the GROQ console, to administrators only', async () => {
    const editor: CurrentUser = {
      ...administrator,
      id: 'marketing',
      role: 'editor',
      roles: [{ name: 'editor', title: 'Editor' }],
    }
    const client = createClient({
      projectId: 'test',
      dataset: 'production',
      apiVersion: '2025-09-01',
      useCdn: false,
    })
    const editorsWorkspace = await createWorkspaceFromConfig({
      ...studioConfigModule.default,
      projectId: 'test',
      auth: createMockAuthStore({ client, currentUser: editor }),
    })
    const names = editorsWorkspace.tools.map((tool) => tool.name)
    expect(names).toEqual(expect.arrayContaining(['structure', 'presentation', 'desempenho']))
    expect(names).not.toContain('vision')
    expect(workspace.tools.map((tool) => tool.name)).toContain('vision')
  }, 60_000)

  it('has the Desempenho tool, and signs in by token so the tool can send it to /api/analytics', () => {
    const tool = workspace.tools.find((candidate) => candidate.name === 'desempenho')
    expect(tool?.title).toBe('Desempenho')
    expect(tool?.component).toBeTypeOf('function')
    expect(studioConfigModule.default).toMatchObject({ auth: { loginMethod: 'token' } })
  })

  it('points the Presentation tool at the site through the draft-mode route', () => {
    const presentation = workspace.tools.find((tool) => tool.name === 'presentation')
    expect(presentation?.options).toMatchObject({
      previewUrl: { initial: '/preview', previewMode: { enable: '/api/draft-mode/enable' } },
    })
  })

  it('previews a campaign page, drafts included, at /preview/p/<slug>', async () => {
    const presentation = workspace.tools.find((tool) => tool.name === 'presentation')
    const resolve = (
      presentation?.options as {
        resolve: {
          locations: Record<string, { resolve: (doc: Record<string, unknown>) => unknown }>
          mainDocuments: Array<{ route: string[]; filter?: string }>
        }
      }
    ).resolve
    expect(
      resolve.locations.campaignPage!.resolve({ title: 'Ônibus', slug: 'onibus-rodoviarios' }),
    ).toEqual({ locations: [{ title: 'Ônibus', href: '/preview/p/onibus-rodoviarios' }] })
    expect(resolve.mainDocuments).toContainEqual(
      expect.objectContaining({ route: ['/p/:slug', '/preview/p/:slug'] }),
    )
  })

  it('previews an article, drafts included, at /preview/conteudos/<slug>', async () => {
    const presentation = workspace.tools.find((tool) => tool.name === 'presentation')
    const resolve = (
      presentation?.options as {
        resolve: {
          locations: Record<string, { resolve: (doc: Record<string, unknown>) => unknown }>
          mainDocuments: Array<{ route: string[]; filter?: string }>
        }
      }
    ).resolve
    expect(
      resolve.locations.article!.resolve({ title: 'LGPD', slug: 'lgpd-camera-na-cabine' }),
    ).toEqual({ locations: [{ title: 'LGPD', href: '/preview/conteudos/lgpd-camera-na-cabine' }] })
    expect(resolve.mainDocuments).toContainEqual({
      route: ['/conteudos/:slug', '/preview/conteudos/:slug'],
      filter: '_type == "article" && slug.current == $slug',
    })
  })

  it('knows every content type', () => {
    for (const type of [
      'landingPage',
      'siteSettings',
      'claim',
      'featureCard',
      'market',
      'link',
      'campaignPage',
      'redirect',
      'announcement',
      'article',
      'category',
      'author',
    ]) {
      expect(source().schema.get(type), type).toBeDefined()
    }
  })
})

describe('singletons', () => {
  it('cannot be created: no template and no "new document" option for them', () => {
    const templateTypes = source().templates.map((template) => template.schemaType)
    expect(templateTypes).toContain('claim')
    expect(templateTypes).not.toContain('landingPage')
    expect(templateTypes).not.toContain('siteSettings')
    expect(templateTypes).not.toContain('roiCalculator')

    const options = source().document.resolveNewDocumentOptions({ type: 'global' })
    expect(options.map((option) => option.templateId)).toEqual([
      'claim',
      'legalPage',
      'campaignPage',
      'redirect',
      'experiment',
      'material',
      'article',
      'category',
      'author',
    ])
  })

  it('can be published, but not deleted, duplicated or unpublished', () => {
    for (const type of ['landingPage', 'siteSettings', 'roiCalculator']) {
      const actions = actionsFor(type)
      expect(actions, type).toContain('publish')
      expect(actions, type).not.toContain('delete')
      expect(actions, type).not.toContain('duplicate')
      expect(actions, type).not.toContain('unpublish')
    }
  })

  it('lets the announcement be unpublished (taken down), but not deleted or duplicated', () => {
    const actions = actionsFor('announcement')
    expect(actions).toEqual(expect.arrayContaining(['publish', 'unpublish']))
    expect(actions).not.toContain('delete')
    expect(actions).not.toContain('duplicate')
    expect(source().templates.map((template) => template.schemaType)).not.toContain('announcement')
  })

  it('leaves the other documents their usual actions', () => {
    expect(actionsFor('claim')).toEqual(expect.arrayContaining(['publish', 'delete', 'duplicate']))
  })

  it('keeps campaign pages their usual actions, publish wrapped to add the slug-change redirect', () => {
    expect(actionsFor('campaignPage')).toEqual(
      expect.arrayContaining(['publish', 'unpublish', 'delete', 'duplicate']),
    )
  })

  it('lets an editor make a review link from a campaign page or an article, never create one by hand', () => {
    expect(actionsFor('campaignPage')).toContain('reviewLink')
    expect(actionsFor('article')).toContain('reviewLink')
    expect(actionsFor('claim')).not.toContain('reviewLink')
    expect(source().templates.map((template) => template.schemaType)).not.toContain('reviewLink')
  })

  it('keeps articles their usual actions too', () => {
    expect(actionsFor('article')).toEqual(
      expect.arrayContaining(['publish', 'unpublish', 'delete', 'duplicate']),
    )
  })
})

describe('desk structure', () => {
  let items: Array<Record<string, unknown>>

  beforeAll(async () => {
    const S: StructureBuilder = createStructureBuilder({ source: source(), perspectiveStack: [] })
    // The resolver context is not used by this structure.
    const root = await structure(S, {} as Parameters<typeof structure>[1])
    items = (root as ReturnType<StructureBuilder['list']>).serialize()
      .items as unknown as typeof items
  })

  it('opens each singleton as its one document, under its fixed id', () => {
    for (const [index, type] of [
      [0, 'landingPage'],
      [1, 'siteSettings'],
      [2, 'announcement'],
    ] as const) {
      const item = items[index]!
      expect(item.id).toBe(type)
      expect(item.child).toMatchObject({ type: 'document', options: { id: type, type } })
    }
  })

  it('lists the claims, the legal pages, then campaign pages, materials, redirects and experiments, then articles, claims by value and label', () => {
    expect(items.map((item) => item.id)).toEqual([
      'landingPage',
      'siteSettings',
      'announcement',
      expect.any(String),
      'claim',
      'roiCalculator',
      'legalPage',
      expect.any(String),
      'material',
      'campaignPage',
      'redirect',
      'experiment',
      expect.any(String),
      'article',
      'category',
      'author',
    ])
    expect(items[2]!.title).toBe('Aviso no topo do site')
    expect(items[5]!.title).toBe('Premissas da calculadora de economia')
    expect(items[5]!.child).toMatchObject({
      type: 'document',
      options: { id: 'roiCalculator', type: 'roiCalculator' },
    })
    expect(items[6]!.title).toBe('Páginas legais')
    expect(items[9]!.title).toBe('Páginas de campanha')
    expect(items[8]!.title).toBe('Materiais')
    expect(items[10]!.title).toBe('Redirecionamentos')
    expect(items[11]!.title).toBe('Experimentos')
    expect(items[3]!.type).toBe('divider')
    expect(items[13]!.title).toBe('Artigos')
    expect(source().schema.get('claim')?.preview?.select).toEqual({
      title: 'value',
      subtitle: 'label',
    })
  })
})

describe('document views', () => {
  const viewsOf = (schemaType: string) => {
    const S: StructureBuilder = createStructureBuilder({ source: source(), perspectiveStack: [] })
    const node = defaultDocumentNode(S, {
      schemaType,
      documentId: 'x',
    } as unknown as Parameters<typeof defaultDocumentNode>[1])
    const views = (node as ReturnType<StructureBuilder['document']>).getViews() ?? []
    return views.map((view) => {
      const spec = 'serialize' in view ? view.serialize() : view
      return { id: spec.id, title: spec.title, type: spec.type }
    })
  }

  it('gives campaign pages and articles a Desempenho tab beside the editor', () => {
    for (const type of ['campaignPage', 'article'])
      expect(viewsOf(type), type).toEqual([
        expect.objectContaining({ type: 'form' }),
        { id: 'desempenho', title: 'Desempenho', type: 'component' },
      ])
  })

  it('leaves the other documents their editor alone', () => {
    for (const type of ['claim', 'legalPage', 'redirect']) expect(viewsOf(type), type).toEqual([])
  })
})

// i18next loads and settles asynchronously: seconds on a loaded 2-core machine, where the first
// test outran vitest's 5 s and waitFor's 1 s.
const SETTLE = { timeout: 20_000 }

describe('Studio interface language', () => {
  it('offers Brazilian Portuguese and opens in it when the editor has not chosen another', async () => {
    const i18n = source().i18n
    expect(i18n.locales.map((locale) => locale.id)).toEqual(['en-US', 'pt-BR'])
    // With no stored preference the Studio picks the last configured locale (pt-BR, after en-US).
    await vi.waitFor(() => expect(i18n.currentLocale.id).toBe('pt-BR'), SETTLE)
  }, 30_000)

  it('translates the desk, the document actions and the Presentation tool', async () => {
    const i18n = source().i18n
    await i18n.loadNamespaces(['structure', 'presentation', 'studio'])
    await vi.waitFor(() => expect(i18n.currentLocale.id).toBe('pt-BR'), SETTLE)
    expect(i18n.t('action.publish.label', { ns: 'structure' })).toBe('Publicar')
    expect(i18n.t('action.delete.label', { ns: 'structure' })).toBe('Excluir')
    expect(i18n.t('action.unpublish.label', { ns: 'structure' })).toBe('Despublicar')
    expect(i18n.t('preview-frame.refresh-button.tooltip', { ns: 'presentation' })).toBe(
      'Atualizar pré-visualização',
    )
  }, 30_000)
})
