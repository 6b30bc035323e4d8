import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'

import { closeEmbeddedLeadStores } from '@/lib/leads/embedded-store'

import { seedPgliteFolder } from './helpers/database'

// lib/env.ts reads the environment once, when first imported; each case imports it afresh.
async function loadLeads() {
  vi.resetModules()
  return import('@/lib/leads')
}

function jwt(claims: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.signature`
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-selection-'))

describe('choosing the lead store', () => {
  // The store's first start on an empty folder: tests/integration/embedded-store.test.ts.
  beforeAll(() => seedPgliteFolder(dataDir))
  beforeEach(() => {
    vi.stubEnv('SUPABASE_URL', '')
    vi.stubEnv('SUPABASE_ANON_KEY', '')
    vi.stubEnv('LEADS_DATA_DIR', dataDir)
    vi.spyOn(console, 'info').mockImplementation(() => {})
    vi.spyOn(console, 'error').mockImplementation(() => {})
  })
  afterEach(async () => {
    vi.unstubAllEnvs()
    vi.restoreAllMocks()
    // Waits for the embedded store's warm-up (opening PGlite takes seconds) before closing it.
    await closeEmbeddedLeadStores()
  }, 60_000)
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('uses Supabase when both SUPABASE_URL and SUPABASE_ANON_KEY are set, and says so once', async () => {
    vi.stubEnv('SUPABASE_URL', 'https://abcd.supabase.co/')
    vi.stubEnv('SUPABASE_ANON_KEY', jwt({ role: 'anon' }))
    const { getLeadStore } = await loadLeads()

    const store = getLeadStore()
    expect(store.kind).toBe('supabase')
    expect(getLeadStore()).toBe(store)
    expect(console.info).toHaveBeenCalledTimes(1)
    expect(vi.mocked(console.info).mock.calls[0]?.[0]).toContain(
      'Supabase at https://abcd.supabase.co.',
    )
  })

  it('uses the embedded store in LEADS_DATA_DIR when neither is set, and says so once', async () => {
    const { getLeadStore } = await loadLeads()

    const store = getLeadStore()
    expect(store.kind).toBe('embedded')
    expect(getLeadStore()).toBe(store)
    expect(console.info).toHaveBeenCalledTimes(1)
    expect(vi.mocked(console.info).mock.calls[0]?.[0]).toContain(
      `embedded PGlite store in ${dataDir}`,
    )
  })

  it.each([
    ['SUPABASE_URL', 'https://abcd.supabase.co', 'SUPABASE_ANON_KEY is not set'],
    ['SUPABASE_ANON_KEY', jwt({ role: 'anon' }), 'SUPABASE_URL is not set'],
  ])('refuses to start with only %s set', async (name, value, message) => {
    vi.stubEnv(name, value)
    await expect(loadLeads()).rejects.toThrow(message)
  })

  it('refuses a SUPABASE_URL that is not an http(s) URL', async () => {
    vi.stubEnv('SUPABASE_URL', 'abcd.supabase.co')
    vi.stubEnv('SUPABASE_ANON_KEY', jwt({ role: 'anon' }))
    await expect(loadLeads()).rejects.toThrow(
      'SUPABASE_URL="abcd.supabase.co" is not an http(s) URL',
    )
  })

  it.each([jwt({ role: 'service_role' }), 'sb_secret_abc123'])(
    'refuses a secret key that would bypass row-level security (%s)',
    async (key) => {
      vi.stubEnv('SUPABASE_URL', 'https://abcd.supabase.co')
      vi.stubEnv('SUPABASE_ANON_KEY', key)
      await expect(loadLeads()).rejects.toThrow('secret (service_role) key')
    },
  )

  it('accepts a new-style publishable key', async () => {
    vi.stubEnv('SUPABASE_URL', 'https://abcd.supabase.co')
    vi.stubEnv('SUPABASE_ANON_KEY', 'sb_publishable_abc123')
    expect((await loadLeads()).getLeadStore().kind).toBe('supabase')
  })
})
