import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import { startWebhookReceiver } from '../support/lead-receivers.mjs'
import { seedPgliteFolder } from './helpers/database'
import { leadRecord, materialRecord } from './helpers/records'

// The courier itself (lib/leads/delivery/index.ts) on the embedded store: a lead delivered whose
// record fails is recorded later and never sent again from this instance (issue 49: "a failure to
// record a success re-sends it").

const failures = { left: 0, calls: 0 }

vi.mock('@/lib/leads/delivery/queue.mjs', async (importOriginal) => {
  const queue = await importOriginal<typeof import('@/lib/leads/delivery/queue.mjs')>()
  return {
    ...queue,
    recordAttempt: async (...args: Parameters<typeof queue.recordAttempt>) => {
      failures.calls++
      if (failures.left > 0) {
        failures.left--
        throw new Error('connection terminated unexpectedly')
      }
      return queue.recordAttempt(...args)
    },
  }
})

const SECRET = `whsec_${Buffer.from('courier-test-secret-0123456789').toString('base64')}`
const PORT = 50_000 + Math.floor(Math.random() * 10_000)
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-courier-'))

beforeAll(() => {
  seedPgliteFolder(path.join(root, 'leads'))
  vi.stubEnv('LEADS_DATA_DIR', path.join(root, 'leads'))
  vi.stubEnv('SUPABASE_URL', '')
  vi.stubEnv('SUPABASE_ANON_KEY', '')
  vi.stubEnv('LEAD_WEBHOOK_URL', `http://127.0.0.1:${PORT}/hooks/lead`)
  vi.stubEnv('LEAD_WEBHOOK_SECRET', SECRET)
})

afterAll(async () => {
  const state = (globalThis as { __vigiaLeadDelivery?: { timer?: NodeJS.Timeout } })
    .__vigiaLeadDelivery
  if (state?.timer) clearInterval(state.timer)
  const { closeEmbeddedLeadStores } = await import('@/lib/leads/embedded-store')
  await closeEmbeddedLeadStores()
  vi.unstubAllEnvs()
  fs.rmSync(root, { recursive: true, force: true })
})

describe('the lead courier', () => {
  it('records a delivered lead whose first records failed, without sending it again', async () => {
    const hook = await startWebhookReceiver({ port: PORT, secret: SECRET })
    const logged: string[] = []
    const error = vi.spyOn(console, 'error').mockImplementation((...args) => {
      logged.push(args.join(' '))
    })
    vi.spyOn(console, 'info').mockImplementation(() => {})
    try {
      const { getLeadStore } = await import('@/lib/leads')
      const { startLeadDelivery, nudgeLeadDelivery, leadDeliveryHealth } =
        await import('@/lib/leads/delivery')
      startLeadDelivery()
      // Its first round has run: the webhook is switched on, so the next lead is queued for it.
      const state = () => globalThis as { __vigiaLeadDelivery?: { stats?: unknown } }
      await expect.poll(() => state().__vigiaLeadDelivery?.stats, { timeout: 20_000 }).toBeDefined()
      // The first record and both retries fail: the database is gone for a few seconds.
      failures.left = 3
      const stored = await getLeadStore().insertLead(
        leadRecord({
          dadosCliente: { atendimento_ia: 'Dados do formulário do site | Empresa: «Frota»' },
        }),
      )
      expect(stored).toEqual({ ok: true })
      nudgeLeadDelivery()
      await expect.poll(() => hook.received.length, { timeout: 20_000 }).toBe(1)
      await expect
        .poll(() => leadDeliveryHealth()?.byDestination?.[0], { timeout: 20_000 })
        .toMatchObject({ destination: 'webhook', delivered: 1, pending: 0 })
      expect(failures.calls).toBeGreaterThanOrEqual(4)
      expect(logged.join('\n')).toMatch(
        /was delivered to webhook, but that could not be recorded .*tried again at the next round/,
      )
      // Two more rounds, run now rather than waited for (each ends by replacing the stats it
      // read): still once.
      for (let round = 0; round < 2; round++) {
        const before = state().__vigiaLeadDelivery?.stats
        nudgeLeadDelivery()
        await expect.poll(() => state().__vigiaLeadDelivery?.stats).not.toBe(before)
      }
      expect(hook.received).toHaveLength(1)
    } finally {
      error.mockRestore()
      await hook.stop()
    }
  }, 60_000)

  it("delivers a material's conversion stored through the store, once, as its own event", async () => {
    const hook = await startWebhookReceiver({ port: PORT, secret: SECRET })
    vi.spyOn(console, 'info').mockImplementation(() => {})
    try {
      const { getLeadStore } = await import('@/lib/leads')
      const { nudgeLeadDelivery, leadDeliveryHealth } = await import('@/lib/leads/delivery')
      expect(
        await getLeadStore().insertConversion(materialRecord({ identificador: 'checklist-frota' })),
      ).toEqual({ ok: true })
      nudgeLeadDelivery()
      await expect.poll(() => hook.received.length, { timeout: 20_000 }).toBe(1)
      expect(hook.received[0]).toMatchObject({
        verified: true,
        body: {
          type: 'conversion.created',
          data: { kind: 'material', conversion: { identifier: 'checklist-frota' } },
        },
      })
      await expect
        .poll(() => leadDeliveryHealth()?.byDestination?.[0], { timeout: 20_000 })
        .toMatchObject({ destination: 'webhook', delivered: 2, pending: 0 })
      nudgeLeadDelivery()
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(hook.received).toHaveLength(1)
    } finally {
      await hook.stop()
    }
  }, 60_000)
})
