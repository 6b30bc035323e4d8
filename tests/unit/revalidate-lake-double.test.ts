import { createClient } from '@sanity/client'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { startContentLakeDouble } from '../support/content-lake-double.mjs'

// The Content Lake double the revalidation and draft-mode tests build the site against: it must
// answer @sanity/client the way the real query API does, or those tests prove nothing.

const TOKEN = 'double-token'
let lake: Awaited<ReturnType<typeof startContentLakeDouble>>

beforeAll(async () => {
  lake = await startContentLakeDouble({
    port: 0,
    token: TOKEN,
    documents: [
      { _id: 'claim-a', _type: 'claim', value: '1%', label: 'A' },
      { _id: 'drafts.claim-a', _type: 'claim', value: '2%', label: 'A' },
      { _id: 'drafts.claim-new', _type: 'claim', value: '3%', label: 'Nova' },
      { _id: 'review-links.abc', _type: 'reviewLink', tokenHash: 'f00', revoked: false },
    ],
  })
})
afterAll(() => lake.close())
beforeEach(() => lake.reset())

const client = (options: Parameters<typeof createClient>[0] = {}) =>
  createClient({
    projectId: 'testproj',
    dataset: 'production',
    apiVersion: '2025-09-01',
    useCdn: false,
    apiHost: lake.url,
    useProjectHostname: false,
    ...options,
  })

const values = (docs: Array<{ value: string }>) => docs.map((doc) => doc.value).sort()

describe('content lake double', () => {
  it('answers a query with parameters, published documents only by default', async () => {
    const result = await client().fetch('*[_type == $type]{value}', { type: 'claim' })
    expect(values(result)).toEqual(['1%'])
  })

  it('overlays drafts over published documents for the drafts perspective with a token', async () => {
    const result = await client({ token: TOKEN, perspective: 'drafts' }).fetch(
      '*[_type == "claim"]{_id, value}',
    )
    expect(result).toEqual(
      expect.arrayContaining([
        { _id: 'claim-a', value: '2%' },
        { _id: 'claim-new', value: '3%' },
      ]),
    )
    expect(result).toHaveLength(2)
  })

  it('keeps drafts private: without a token the drafts perspective sees published documents', async () => {
    const result = await client({ perspective: 'drafts' }).fetch('*[_type == "claim"]{value}')
    expect(values(result)).toEqual(['1%'])
  })

  it('refuses a wrong token with 401', async () => {
    await expect(client({ token: 'nope' }).fetch('*')).rejects.toMatchObject({ statusCode: 401 })
  })

  it('answers long queries sent by POST', async () => {
    const padding = ' '.repeat(12_000)
    const result = await client().fetch(`*[_id == $id]${padding}{value}`, { id: 'claim-a' })
    expect(result).toEqual([{ value: '1%' }])
    expect(lake.requests().requests.at(-1)?.method).toBe('POST')
  })

  it('applies mutations, counts query requests, and resets to the initial dataset', async () => {
    lake.mutate([{ patch: { id: 'claim-a', set: { value: '9%' } } }])
    expect(await client().fetch('*[_id == "claim-a"][0].value')).toBe('9%')
    expect(lake.requests().count).toBe(1)

    const response = await fetch(`${lake.url}/__mutate`, {
      method: 'POST',
      body: JSON.stringify({ mutations: [{ delete: { id: 'claim-a' } }] }),
    })
    expect(response.status).toBe(200)
    expect(await client().fetch('count(*)')).toBe(0)

    await fetch(`${lake.url}/__reset`, { method: 'POST' })
    expect(lake.requests().count).toBe(0)
    expect(await client().fetch('*[_id == "claim-a"][0].value')).toBe('1%')
  })

  it('reports a GROQ syntax error as the API does', async () => {
    await expect(client().fetch('*[')).rejects.toMatchObject({ statusCode: 400 })
  })

  it('fails on demand: 503 to every query, or no answer at all until the mode ends', async () => {
    const failing = (mode: string) =>
      fetch(`${lake.url}/__fail`, { method: 'POST', body: JSON.stringify({ mode }) })
    expect((await failing('503')).status).toBe(200)
    await expect(client({ maxRetries: 0 }).fetch('count(*)')).rejects.toMatchObject({
      statusCode: 503,
    })

    expect((await failing('hang')).status).toBe(200)
    const raw = fetch(`${lake.url}/v2025-09-01/data/query/production?query=count(*)`)
    const outcome = await Promise.race([
      raw.then(
        () => 'answered',
        () => 'dropped',
      ),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 300)),
    ])
    expect(outcome).toBe('still waiting')
    // Back: the held request is dropped (as a dead link), new ones are answered.
    expect((await failing('none')).status).toBe(200)
    await expect(raw).rejects.toThrow()
    expect(await client().fetch('count(*)')).toBe(1)
    expect((await failing('sometimes')).status).toBe(400)
  })

  it('takes writes through the mutation API with its write token only, as @sanity/client sends them', async () => {
    const writer = client({ token: lake.writeToken })
    await writer.mutate([{ patch: { id: 'claim-a', set: { value: '7%' } } }])
    expect(await client().fetch('*[_id == "claim-a"][0].value')).toBe('7%')
    await expect(
      client({ token: 'wrong' }).mutate([{ delete: { id: 'claim-a' } }]),
    ).rejects.toMatchObject({ statusCode: 401 })
    // The read token (the site's SANITY_API_READ_TOKEN, a Viewer's) reads drafts, never writes.
    await expect(
      client({ token: TOKEN }).mutate([{ delete: { id: 'claim-a' } }]),
    ).rejects.toMatchObject({ statusCode: 403 })
    expect(await client().fetch('*[_id == "claim-a"][0].value')).toBe('7%')
  })

  it('gives every document a revision, and every change a new random one (as the Content Lake)', async () => {
    const rev = async () => client().fetch<string>('*[_id == "claim-a"][0]._rev')
    const first = await rev()
    expect(first).toMatch(/^[\w-]{10,}$/)
    lake.mutate([{ patch: { id: 'claim-a', set: { value: '5%' } } }])
    const second = await rev()
    expect(second).not.toBe(first)
    lake.mutate([{ createOrReplace: { _id: 'claim-a', _type: 'claim', value: '5%' } }])
    const third = await rev()
    expect(new Set([first, second, third]).size).toBe(3)
    // A reset brings back the revision the double started with.
    lake.reset()
    expect(await rev()).toBe(first)
  })

  it('keeps every id with a dot private (review-links.*, drafts.*): only a token reads them', async () => {
    const query = '*[_id in path("review-links.**") || _id in path("drafts.**")]._id'
    for (const perspective of ['published', 'raw', 'drafts'] as const)
      expect(await client({ perspective }).fetch(query), perspective).toEqual([])
    expect(
      (await client({ token: TOKEN, perspective: 'raw' }).fetch<string[]>(query)).sort(),
    ).toEqual(['drafts.claim-a', 'drafts.claim-new', 'review-links.abc'])
    expect(await client().fetch('*[_id == "review-links.abc"][0]')).toBeNull()
  })

  it('answers with the state before a mutation for the consistency delay, then the new one', async () => {
    const value = () => client().fetch<string>('*[_id == "claim-a"][0].value')
    const response = await fetch(`${lake.url}/__consistency`, {
      method: 'POST',
      body: JSON.stringify({ delayMs: 400 }),
    })
    expect(await response.json()).toEqual({ delayMs: 400 })
    lake.mutate([{ patch: { id: 'claim-a', set: { value: '8%' } } }])
    // Read after the call: the double stamps the mutation when it commits, which on a busy machine
    // came a few ms after a clock read before it, and the wait then ended just short.
    const at = Date.now()
    expect(await value()).toBe('1%')
    while (Date.now() < at + 400) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await value()).toBe('8%')
    // A batch is one state: never half of it.
    lake.consistencyDelay(0)
    expect(() =>
      lake.mutate([
        { patch: { id: 'claim-a', set: { value: '6%' } } },
        { patch: { id: 'claim-missing', set: { value: '0%' } } },
      ]),
    ).toThrow(/not found/)
    expect(await value()).toBe('8%')
    expect(
      (
        await fetch(`${lake.url}/__consistency`, {
          method: 'POST',
          body: JSON.stringify({ delayMs: -1 }),
        })
      ).status,
    ).toBe(400)
  })
})
