import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { createClient } from '@sanity/client'
import { isValidSignature, SIGNATURE_HEADER_NAME } from '@sanity/webhook'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { startContentLakeDouble } from '../support/content-lake-double.mjs'

// The Content Lake double's writes, which tests/e2e/studio-day.spec.ts drives from the Studio:
// if they differ from the real API (revisions, the Actions API, the listener, the webhook), the
// Studio's publish button would be tested against something Sanity never does.

const SESSION = 'member-session'
const VIEWER = 'viewer-session'
const SECRET = 'webhook-secret'
type Delivery = { body: string; headers: http.IncomingHttpHeaders }
const deliveries: Delivery[] = []
let receiver: http.Server
let lake: Awaited<ReturnType<typeof startContentLakeDouble>>

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      deliveries.push({ body, headers: req.headers })
      res.end('{}')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  lake = await startContentLakeDouble({
    port: 0,
    documents: [
      { _id: 'page-a', _type: 'campaignPage', slug: { _type: 'slug', current: 'velha' } },
      { _id: 'drafts.page-a', _type: 'campaignPage', slug: { _type: 'slug', current: 'nova' } },
    ],
    users: [
      { token: SESSION, id: 'p-editor', roles: ['editor'] },
      { token: VIEWER, id: 'p-viewer', roles: ['viewer'] },
    ],
    webhook: {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`,
      secret: SECRET,
      filter: '_type in ["campaignPage"]',
      projection: '{_id, "slug": slug.current, "before": before(){"slug": slug.current}}',
    },
  })
})
afterAll(async () => {
  await lake.close()
  receiver.close()
})
beforeEach(() => {
  lake.reset()
  deliveries.length = 0
})

const client = createClientFor(SESSION)
function createClientFor(token: string) {
  return createClient({
    projectId: 'testproj',
    dataset: 'production',
    apiVersion: '2025-02-19',
    useCdn: false,
    apiHost: `http://127.0.0.1`,
    useProjectHostname: false,
    token,
  })
}
const at = () => client.withConfig({ apiHost: lake.url })
const read = (id: string) =>
  at().withConfig({ token: lake.token, perspective: 'raw' }).fetch('*[_id == $id][0]', { id })

describe('content lake double: writes', () => {
  it('publishes a draft through the Actions API, as the Studio’s button does, the transaction’s id its new _rev', async () => {
    const draft = await read('drafts.page-a')
    await at().action(
      {
        actionType: 'sanity.action.document.publish',
        draftId: 'drafts.page-a',
        publishedId: 'page-a',
        ifDraftRevisionId: draft._rev,
      },
      { transactionId: 'tx-publish' },
    )
    expect(await read('page-a')).toMatchObject({ slug: { current: 'nova' }, _rev: 'tx-publish' })
    expect(await read('drafts.page-a')).toBeNull()
  })

  it('sends the webhook for the published document only, projected with before() and signed', async () => {
    await at().action({
      actionType: 'sanity.action.document.publish',
      draftId: 'drafts.page-a',
      publishedId: 'page-a',
    })
    await expect.poll(() => deliveries.length).toBe(1)
    const [delivery] = deliveries
    expect(JSON.parse(delivery!.body)).toEqual({
      _id: 'page-a',
      slug: 'nova',
      before: { slug: 'velha' },
    })
    expect(delivery!.headers['sanity-operation']).toBe('update')
    expect(
      await isValidSignature(
        delivery!.body,
        delivery!.headers[SIGNATURE_HEADER_NAME] as string,
        SECRET,
      ),
    ).toBe(true)
  })

  it('applies the Studio’s patches and refuses a stale ifRevisionID', async () => {
    const draft = await read('drafts.page-a')
    await at()
      .patch('drafts.page-a')
      .set({ 'slug.current': 'outra' })
      .ifRevisionId(draft._rev)
      .commit()
    expect((await read('drafts.page-a')).slug.current).toBe('outra')
    await expect(
      at().patch('drafts.page-a').set({ title: 'x' }).ifRevisionId(draft._rev).commit(),
    ).rejects.toMatchObject({ statusCode: 409 })
  })

  it('fails a whole transaction whose create finds the document, as the Mutation API: create then delete is a precondition on absence', async () => {
    const page = await read('page-a')
    const guarded = (slug: string) => [
      { create: { _id: 'drafts.page-a', _type: 'campaignPage' } },
      { delete: { id: 'drafts.page-a' } },
      { patch: { id: 'page-a', set: { 'slug.current': slug } } },
    ]
    await expect(at().mutate(guarded('nunca'))).rejects.toMatchObject({ statusCode: 409 })
    expect(await read('page-a')).toEqual(page)
    expect((await read('drafts.page-a')).slug.current).toBe('nova')
    await at().mutate([{ delete: { id: 'drafts.page-a' } }])
    await at().mutate(guarded('sem-rascunho'))
    expect((await read('page-a')).slug.current).toBe('sem-rascunho')
    expect(await read('drafts.page-a')).toBeNull()
  })

  it('applies a request’s actions in order, as the Studio sends a new page: create, then its edits', async () => {
    await at().action(
      [
        {
          actionType: 'sanity.action.document.create',
          publishedId: 'page-b',
          attributes: { _id: 'drafts.page-b', _type: 'campaignPage', title: 'Cópia' },
          ifExists: 'fail',
        },
        {
          actionType: 'sanity.action.document.edit',
          draftId: 'drafts.page-b',
          publishedId: 'page-b',
          patch: { set: { 'slug.current': 'copia' } },
        },
      ],
      { transactionId: 'tx-new' },
    )
    expect(await read('drafts.page-b')).toMatchObject({
      title: 'Cópia',
      slug: { current: 'copia' },
      _rev: 'tx-new',
    })
    // The same create again fails the whole request; with ifExists "ignore" it is left alone.
    const create = (ifExists: 'fail' | 'ignore') => ({
      actionType: 'sanity.action.document.create' as const,
      publishedId: 'page-b',
      attributes: { _id: 'drafts.page-b', _type: 'campaignPage', title: 'Outra' },
      ifExists,
    })
    await expect(at().action(create('fail'))).rejects.toMatchObject({ statusCode: 409 })
    await at().action([
      create('ignore'),
      {
        actionType: 'sanity.action.document.publish',
        draftId: 'drafts.page-b',
        publishedId: 'page-b',
      },
    ])
    expect(await read('page-b')).toMatchObject({ title: 'Cópia', slug: { current: 'copia' } })
  })

  it('checks the Studio’s publish lock, ifPublishedRevisionId, and changes nothing when it fails', async () => {
    const published = await read('page-a')
    const publish = (ifPublishedRevisionId: string) =>
      at().action({
        actionType: 'sanity.action.document.publish',
        draftId: 'drafts.page-a',
        publishedId: 'page-a',
        ifPublishedRevisionId,
      })
    await expect(publish('not-the-revision')).rejects.toMatchObject({ statusCode: 409 })
    expect(await read('page-a')).toEqual(published)
    await publish(published._rev)
    expect((await read('page-a')).slug.current).toBe('nova')
  })

  it('refuses writes from the read token and from a viewer (403), as the real API', async () => {
    for (const token of [lake.token, VIEWER])
      await expect(
        createClientFor(token).withConfig({ apiHost: lake.url }).action({
          actionType: 'sanity.action.document.discard',
          draftId: 'drafts.page-a',
        }),
      ).rejects.toMatchObject({ statusCode: 403 })
    expect(await read('drafts.page-a')).not.toBeNull()
  })

  it('refuses a write without a member’s session or the token', async () => {
    await expect(
      createClientFor('stranger')
        .withConfig({ apiHost: lake.url })
        .create({ _id: 'x', _type: 'redirect' }),
    ).rejects.toMatchObject({ statusCode: 401 })
  })

  it('streams each change to a listener whose query selects it', async () => {
    const events: Array<{ type: string; documentId?: string; resultRev?: string }> = []
    const subscription = at()
      .listen(
        '*[_id in $ids]',
        { ids: ['page-a', 'drafts.page-a'] },
        {
          events: ['welcome', 'mutation'],
          includeResult: false,
        },
      )
      .subscribe((event) => events.push(event as (typeof events)[number]))
    try {
      await expect.poll(() => events.some((event) => event.type === 'welcome')).toBe(true)
      await at().mutate([{ patch: { id: 'drafts.page-a', set: { title: 'Nova' } } }], {
        transactionId: 'tx-edit',
      })
      await expect
        .poll(() => events.find((event) => event.type === 'mutation'))
        .toMatchObject({ documentId: 'drafts.page-a', resultRev: 'tx-edit' })
    } finally {
      subscription.unsubscribe()
    }
  })
})
