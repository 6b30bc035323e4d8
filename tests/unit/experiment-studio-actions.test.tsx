// @vitest-environment jsdom
// The Studio's "Encerrar experimento" and "Tornar uma versão padrão" (sanity/actions/
// experiment-actions.tsx) run as the Studio runs them: their client (useClient) writes to the
// Content Lake double, Sanity's permission and validation hooks answer as for an editor (the
// role's grants allow publishing) or a viewer (they do not), and another editor's change lands
// between the action's read and its write.
import { createClient, type SanityClient } from '@sanity/client'
import { studioTheme, ThemeProvider } from '@sanity/ui'
import { act, useEffect, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import type {
  DocumentActionComponent,
  DocumentActionDescription,
  DocumentActionProps,
} from 'sanity'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'

import { PAGE_DRAFT_PROBLEM } from '../../sanity/lib/experiment-actions'
import { startContentLakeDouble } from '../support/content-lake-double.mjs'

const TOKEN = 'editor-token'
let client: SanityClient
/** The signed-in user's role: an editor's grants allow publishing, a viewer's only reading. */
let role: 'editor' | 'viewer' = 'editor'
/** Types the role's grants leave out (a custom role that may edit experiments but not pages). */
let deniedTypes: string[] = []
/** What Sanity's validation of the edited document found. */
let markers: Array<{ level: 'error' | 'warning'; message: string; path: string[] }> = []
/** The revision the validation is of (the document's, once validated). */
let validatedRevision: string | undefined
const permissionChecks: Array<{ id: string; type: string; permission: string }> = []

vi.mock('sanity', () => ({
  // The schema's helpers, identities as in sanity (the actions read the blocks' declarations).
  defineArrayMember: (value: unknown) => value,
  defineField: (value: unknown) => value,
  defineType: (value: unknown) => value,
  useClient: () => client,
  useDocumentPairPermissions: (options: { id: string; type: string; permission: string }) => {
    permissionChecks.push(options)
    const granted = role === 'editor' && !deniedTypes.includes(options.type)
    return [{ granted, reason: granted ? '' : 'No matching grants found' }, false]
  },
  useDocumentType: (id: string, specified?: string) => ({
    isLoaded: true,
    documentType: specified ?? (id === 'landingPage' ? 'landingPage' : undefined),
  }),
  useValidationStatus: () => ({
    isValidating: false,
    validation: markers,
    revision: validatedRevision,
  }),
}))

const {
  EndExperimentAction,
  PromoteVariantAction,
  CANNOT_WRITE_EXPERIMENT,
  CANNOT_WRITE_PAGE,
  EXPERIMENT_CHANGED,
} = await import('../../sanity/actions/experiment-actions')

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
vi.setConfig({ testTimeout: 60_000 })

const image = { _type: 'image', asset: { _type: 'reference', _ref: 'image-abc-800x600-jpg' } }

let lake: Awaited<ReturnType<typeof startContentLakeDouble>>
beforeAll(async () => {
  lake = await startContentLakeDouble({
    port: 0,
    // An editor's token: it reads drafts and writes (the double's read token alone gets 403).
    token: TOKEN,
    writeToken: TOKEN,
    documents: [
      {
        _id: 'exp-home',
        _type: 'experiment',
        title: 'Imagem da home',
        page: { _type: 'reference', _ref: 'landingPage' },
        variants: [
          { _key: 'a', key: 'controle', label: 'Original' },
          { _key: 'b', key: 'imagem', label: 'Outra imagem' },
        ],
        visibleFrom: '2026-01-01T00:00:00.000Z',
        visibleUntil: null,
      },
      {
        _id: 'landingPage',
        _type: 'landingPage',
        hero: {
          headline: 'Original',
          experimentVariants: [
            {
              _key: 'v1',
              experiment: { _type: 'reference', _ref: 'exp-home' },
              variant: 'imagem',
              visual: image,
            },
          ],
        },
      },
    ],
  })
  client = createClient({
    projectId: 'testproj',
    dataset: 'production',
    apiHost: lake.url,
    useProjectHostname: false,
    apiVersion: '2025-02-19',
    useCdn: false,
    token: TOKEN,
    ignoreBrowserTokenWarning: true,
  })
})
afterAll(() => lake.close())

type Doc = Record<string, unknown> & { _id: string; _rev: string }
const read = (id: string) =>
  client.fetch<Doc | null>('*[_id == $id][0]', { id }, { perspective: 'raw' })

let container: HTMLDivElement
let root: Root
let sent: unknown[][]
beforeEach(async () => {
  lake.reset()
  role = 'editor'
  deniedTypes = []
  markers = []
  permissionChecks.length = 0
  sent = []
  const mutate = client.mutate.bind(client)
  vi.spyOn(client, 'mutate').mockImplementation(((mutations: unknown[], options: never) => {
    sent.push(mutations)
    return mutate(mutations as never, options)
  }) as never)
  container = document.createElement('div')
  document.body.append(container)
  root = createRoot(container)
})
afterEach(async () => {
  await act(async () => root.unmount())
  container.remove()
  vi.restoreAllMocks()
})

let description: DocumentActionDescription | null = null
const describe_ = (value: DocumentActionDescription | null) => {
  description = value
}
/** Runs the action as the Studio does (a hook), reporting what it describes after each render. */
function Harness({
  action,
  props,
  report,
}: {
  action: DocumentActionComponent
  props: DocumentActionProps
  report: (value: DocumentActionDescription | null) => void
}) {
  const described = action(props)
  useEffect(() => report(described))
  const dialog = described?.dialog
  return dialog && dialog.type === 'dialog' ? <>{dialog.content as ReactNode}</> : null
}

/** Renders the action on the experiment as the lake holds it now (the Studio's edit state). */
async function renderAction(action: DocumentActionComponent) {
  const published = await read('exp-home')
  const draft = await read('drafts.exp-home')
  validatedRevision = (draft ?? published)?._rev
  const props = {
    id: 'exp-home',
    type: 'experiment',
    published,
    draft,
    liveEdit: false,
    onComplete: vi.fn(),
  } as unknown as DocumentActionProps
  const rerender = () =>
    act(async () =>
      root.render(
        <ThemeProvider theme={studioTheme}>
          <Harness key={action.action} action={action} props={props} report={describe_} />
        </ThemeProvider>,
      ),
    )
  await rerender()
  return { props, rerender }
}

const confirmDialog = () => {
  const dialog = description?.dialog
  if (!dialog || dialog.type !== 'confirm') throw new Error('no confirm dialog')
  return dialog
}

function button(text: string) {
  const found = [...container.querySelectorAll('button')].find((element) =>
    element.textContent?.includes(text),
  )
  if (!found) throw new Error(`no button "${text}" in: ${container.textContent}`)
  return found
}

/** Clicks the dialog's button, then lets time pass inside act until `done` holds. */
async function clickAndWait(text: string, done: () => void) {
  await act(async () => button(text).click())
  for (let attempt = 0; attempt < 250; attempt++) {
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)))
    try {
      return done()
    } catch {
      // not yet
    }
  }
  done()
}

describe('Encerrar experimento', () => {
  it('is enabled for an editor and ends the experiment, pinned to its revision and its draft’s absence', async () => {
    await renderAction(EndExperimentAction)
    expect(description).toMatchObject({ label: 'Encerrar experimento', disabled: false })
    expect(description?.title).toBeUndefined()
    // Sanity's own check, the one its Publish action makes, on the experiment's pair.
    expect(permissionChecks).toContainEqual({
      id: 'exp-home',
      type: 'experiment',
      permission: 'publish',
    })
    const before = await read('exp-home')
    await act(async () => description!.onHandle!())
    await act(async () => confirmDialog().onConfirm())
    expect(sent).toEqual([
      [
        { create: { _id: 'drafts.exp-home', _type: 'experiment' } },
        { delete: { id: 'drafts.exp-home' } },
        {
          patch: {
            id: 'exp-home',
            ifRevisionID: before!._rev,
            set: { visibleUntil: expect.any(String) },
          },
        },
      ],
    ])
    expect((await read('exp-home'))?.visibleUntil).toEqual(expect.any(String))
    expect(await read('drafts.exp-home')).toBeNull()
  })

  it('publishes the editor’s draft with the end, both revisions checked', async () => {
    lake.mutate([
      {
        createOrReplace: {
          ...(await read('exp-home')),
          _id: 'drafts.exp-home',
          title: 'Novo nome',
        },
      },
    ])
    await renderAction(EndExperimentAction)
    await act(async () => description!.onHandle!())
    await act(async () => confirmDialog().onConfirm())
    expect(await read('exp-home')).toMatchObject({
      title: 'Novo nome',
      visibleUntil: expect.any(String),
    })
    expect(await read('drafts.exp-home')).toBeNull()
  })

  it('is disabled for a viewer, with the reason in Portuguese, and writes nothing', async () => {
    role = 'viewer'
    await renderAction(EndExperimentAction)
    expect(description).toMatchObject({ disabled: true, title: CANNOT_WRITE_EXPERIMENT })
    expect(CANNOT_WRITE_EXPERIMENT).toBe('Sua função no projeto não permite editar experimentos.')
    await act(async () => description!.onHandle!())
    await act(async () => confirmDialog().onConfirm())
    expect(sent).toEqual([])
    expect(confirmDialog().message).toBe(CANNOT_WRITE_EXPERIMENT)
  })

  it('refuses an invalid experiment with its first validation error', async () => {
    markers = [
      { level: 'warning', message: 'Aviso qualquer', path: ['title'] },
      { level: 'error', message: 'As versões precisam somar 100%.', path: ['variants'] },
    ]
    await renderAction(EndExperimentAction)
    expect(description).toMatchObject({
      disabled: true,
      title: 'Corrija o experimento antes: As versões precisam somar 100%.',
    })
    await act(async () => description!.onHandle!())
    await act(async () => confirmDialog().onConfirm())
    expect(sent).toEqual([])
  })

  it('fails without writing when someone changed the experiment after it was read', async () => {
    await renderAction(EndExperimentAction)
    await act(async () => description!.onHandle!())
    lake.mutate([{ patch: { id: 'exp-home', set: { title: 'Mudado por outra pessoa' } } }])
    await act(async () => confirmDialog().onConfirm())
    expect(confirmDialog().message).toBe(EXPERIMENT_CHANGED)
    expect(await read('exp-home')).toMatchObject({
      title: 'Mudado por outra pessoa',
      visibleUntil: null,
    })
  })

  it('fails without writing when a draft of the experiment was made after it was read', async () => {
    await renderAction(EndExperimentAction)
    await act(async () => description!.onHandle!())
    // Published later, this draft (still without an end) would bring the experiment back.
    lake.mutate([
      { createOrReplace: { ...(await read('exp-home')), _id: 'drafts.exp-home', title: 'Outro' } },
    ])
    await act(async () => confirmDialog().onConfirm())
    expect(confirmDialog().message).toBe(EXPERIMENT_CHANGED)
    expect((await read('exp-home'))?.visibleUntil).toBeNull()
  })
})

describe('Tornar uma versão padrão', () => {
  it('is enabled for an editor and copies the variant into the page and ends the experiment in one pinned transaction', async () => {
    const { props } = await renderAction(PromoteVariantAction)
    expect(description).toMatchObject({ label: 'Tornar uma versão padrão', disabled: false })
    expect(permissionChecks).toContainEqual({
      id: 'landingPage',
      type: 'landingPage',
      permission: 'publish',
    })
    const page = await read('landingPage')
    await act(async () => description!.onHandle!())
    await clickAndWait('Tornar padrão: Outra imagem', () =>
      expect(props.onComplete).toHaveBeenCalled(),
    )
    expect(sent).toHaveLength(1)
    expect(sent[0]!.slice(0, 3)).toEqual([
      { create: { _id: 'drafts.landingPage', _type: 'landingPage' } },
      { delete: { id: 'drafts.landingPage' } },
      {
        patch: {
          id: 'landingPage',
          ifRevisionID: page!._rev,
          set: { 'hero.visual': image },
          unset: ['hero.experimentVariants[_key=="v1"]'],
        },
      },
    ])
    expect((await read('exp-home'))?.visibleUntil).toEqual(expect.any(String))
    expect(await read('landingPage')).toMatchObject({
      hero: { headline: 'Original', visual: image, experimentVariants: [] },
    })
    expect(await read('drafts.landingPage')).toBeNull()
  })

  it('is disabled for a viewer, with the reason in Portuguese', async () => {
    role = 'viewer'
    await renderAction(PromoteVariantAction)
    expect(description).toMatchObject({ disabled: true, title: CANNOT_WRITE_EXPERIMENT })
  })

  it('is disabled for a role that may edit experiments but not their page', async () => {
    deniedTypes = ['landingPage']
    await renderAction(PromoteVariantAction)
    expect(description).toMatchObject({ disabled: true, title: CANNOT_WRITE_PAGE })
    await renderAction(EndExperimentAction)
    expect(description).toMatchObject({ disabled: false })
  })

  it('fails without writing when a draft of the page was made between its read and its write', async () => {
    await renderAction(PromoteVariantAction)
    await act(async () => description!.onHandle!())
    const page = await read('landingPage')
    const fetch = client.fetch.bind(client)
    let reads = 0
    vi.spyOn(client, 'fetch').mockImplementation((async (...args: Parameters<typeof fetch>) => {
      const result = await fetch(...args)
      // Another editor starts changing the page right after the action read it.
      if (reads++ === 0)
        lake.mutate([
          {
            createOrReplace: {
              ...(await read('landingPage')),
              _id: 'drafts.landingPage',
              hero: { headline: 'Rascunho' },
            },
          },
        ])
      return result
    }) as never)
    await clickAndWait('Tornar padrão: Outra imagem', () =>
      expect(container.querySelector('[role="alert"]')?.textContent).toBe(PAGE_DRAFT_PROBLEM),
    )
    // Sent, and refused by the lake: the draft appeared after the action had checked for one.
    expect(sent).toHaveLength(1)
    expect(await read('landingPage')).toEqual(page)
    expect((await read('exp-home'))?.visibleUntil).toBeNull()
    expect(await read('drafts.landingPage')).toMatchObject({ hero: { headline: 'Rascunho' } })
  })
})
