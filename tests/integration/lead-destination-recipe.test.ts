import fs from 'node:fs'

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import { applyMigrations, type Database } from '@/lib/leads/db.mjs'

import { createTestDatabase, insertLeadRow, type TestDatabase } from './helpers/database'
import { readRecipe } from '../support/recipe'

// docs/leads.md, "Adding a destination", followed for a throwaway destination that ships nowhere:
// a CRM whose first answer is a 503 with Retry-After 0. Step 1 (its sender) and step 2 (its entry
// in destinations.ts) are `recipe` and the mock below; nothing else is added for it. A lead stored
// in the real migrations' tables must then be queued for it, its failure retried and delivered by
// the real courier (lib/leads/delivery/index.ts), and /api/health's figures must count it.

const recipe = vi.hoisted(() => ({
  db: undefined as Database | undefined,
  calls: [] as Array<{ leadUid: string; company: string }>,
}))
vi.mock('@/lib/leads/delivery/destinations', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/lib/leads/delivery/destinations')>()
  const crm = {
    receiver: 'CRM de teste',
    sender: () => async (lead: { id: string; company: string }) => {
      recipe.calls.push({ leadUid: lead.id, company: lead.company })
      return recipe.calls.length === 1
        ? { kind: 'retry' as const, reason: 'HTTP 503', retryAfterMs: 0 }
        : { kind: 'delivered' as const }
    },
  }
  return { ...original, DESTINATIONS: { ...original.DESTINATIONS, crm } }
})
// The embedded store's database, as the server's own (lib/leads/embedded-store.ts) would be.
vi.mock('@/lib/leads', () => ({
  getLeadStore: () => ({ kind: 'embedded', database: async () => recipe.db! }),
}))

const { leadDeliveryHealth, nudgeLeadDelivery, startLeadDelivery } =
  await import('@/lib/leads/delivery')
const { composeLeadRecord } = await import('@/lib/leads/compose')

describe('a lead destination added by the recipe alone', { timeout: 60_000 }, () => {
  let test: TestDatabase

  beforeAll(async () => {
    test = await createTestDatabase()
    await applyMigrations(test.db)
    recipe.db = test.db
  }, 60_000)
  afterAll(async () => {
    const state = (globalThis as { __vigiaLeadDelivery?: { timer?: NodeJS.Timeout } })
      .__vigiaLeadDelivery
    clearInterval(state?.timer)
    await test?.close()
  })

  it('is switched on, queued for each lead, retried after its failure and delivered once', async () => {
    const { db } = test
    startLeadDelivery()
    await vi.waitFor(
      async () => {
        const on = await db.query(`select name from lead_delivery.destinations where enabled`)
        expect(on.rows.map((row) => row.name)).toContain('crm')
      },
      { timeout: 15_000, interval: 200 },
    )

    const record = await composeLeadRecord({
      name: 'Maria Souza',
      email: 'maria@transportadora.com.br',
      company: 'Transportadora Horizonte',
      phone: '(11) 99999-8888',
      fleetSize: '51-100',
      message: '',
      calculadora: '',
      whatsappOptIn: '',
    })
    await insertLeadRow(db, record.dadosCliente)
    nudgeLeadDelivery()

    await vi.waitFor(
      async () => {
        const delivery = await db.query(
          `select status, attempts, lead_uid::text as uid from lead_delivery.deliveries
           where destination = 'crm'`,
        )
        expect(delivery.rows).toEqual([
          expect.objectContaining({ status: 'delivered', attempts: 2 }),
        ])
        // The failed attempt and the retry, both with the stored lead and its stable id.
        expect(recipe.calls).toEqual([
          { leadUid: delivery.rows[0]!.uid, company: 'Transportadora Horizonte' },
          { leadUid: delivery.rows[0]!.uid, company: 'Transportadora Horizonte' },
        ])
      },
      { timeout: 20_000, interval: 250 },
    )
    await vi.waitFor(() =>
      expect(leadDeliveryHealth()).toMatchObject({
        ok: true,
        destinations: expect.arrayContaining(['crm']),
        byDestination: expect.arrayContaining([
          expect.objectContaining({ destination: 'crm', delivered: 1, pending: 0, sent: true }),
        ]),
      }),
    )
  })

  it('is the file list docs/leads.md gives, and every destination has its bullet there', async () => {
    const {
      text: section,
      files: steps,
      statedCount,
    } = readRecipe('docs/leads.md', '### Adding a destination')
    // Steps 1 and 2 are the mock above; 3 and 4 are held below and by
    // tests/unit/legal-pages.test.tsx, which loops over DESTINATIONS' receivers.
    expect(steps).toEqual([
      'lib/leads/delivery/<name>.ts',
      'lib/leads/delivery/destinations.ts',
      'docs/leads.md',
      'sanity/dataset/production.ndjson',
    ])
    expect(statedCount).toBe(steps.length)
    expect(steps.length).toBeLessThanOrEqual(4)
    // Settings add three more, named (tests/unit/env-example.test.ts and env-docs.test.ts hold
    // them to lib/env.ts).
    const withSettings = ['lib/env.ts', '.env.example', 'docs/environment.md']
    expect(Number(/(\d+) with settings/.exec(section)?.[1])).toBe(
      steps.length + withSettings.length,
    )
    for (const file of withSettings) expect(section).toContain(`\`${file}\``)

    const { DESTINATIONS } = await vi.importActual<
      typeof import('@/lib/leads/delivery/destinations')
    >('@/lib/leads/delivery/destinations')
    const bullets = fs
      .readFileSync('docs/leads.md', 'utf8')
      .split('## Where each lead goes')[1]!
      .split('\n**')[0]!
    for (const name of Object.keys(DESTINATIONS)) expect(bullets).toContain(`(\`${name}\`)`)
  })
})
