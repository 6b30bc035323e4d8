import { AsyncLocalStorage } from 'node:async_hooks'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

import { describe, expect, it } from 'vitest'

import { captureRootContext, outsideRequest } from '@/lib/outside-request'
import { checkBeaconLimits, checkDemoRequestLimits } from '@/lib/security/rate-limit'

// A timer started while a request is handled keeps the request's async context (Next's stores)
// alive until it fires: the in-memory rate limits' 60 s timers held every beacon's request.
// Observed the way it leaked: a WeakRef to the request's store, after a full garbage collection.

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const requestStore = new AsyncLocalStorage<{ request: string[] }>()
captureRootContext()

/** Handles a "request" with `work`, then reports whether its store outlived it. */
async function outlives(work: () => Promise<unknown>): Promise<boolean> {
  let ref: WeakRef<object> | undefined
  await requestStore.run({ request: Array.from({ length: 1000 }, String) }, async () => {
    ref = new WeakRef(requestStore.getStore()!)
    await work()
  })
  await new Promise((resolve) => setTimeout(resolve, 10))
  gc()
  return ref!.deref() !== undefined
}

describe('outsideRequest', () => {
  it('runs its function outside the request: what it starts does not see the request', async () => {
    const seen = await requestStore.run({ request: ['a'] }, () =>
      outsideRequest(
        () =>
          new Promise((resolve) => setTimeout(() => resolve(requestStore.getStore()), 1).unref()),
      ),
    )
    expect(seen).toBeUndefined()
  })

  it('a timer started in the request holds it (what the limits did), one started outside does not', async () => {
    const timers: NodeJS.Timeout[] = []
    expect(await outlives(async () => timers.push(setTimeout(() => {}, 60_000)))).toBe(true)
    expect(
      await outlives(async () => outsideRequest(() => timers.push(setTimeout(() => {}, 60_000)))),
    ).toBe(false)
    for (const timer of timers) clearTimeout(timer)
  })

  it('a beacon from a new address, and a demo request, leave nothing of their request behind', async () => {
    expect(await outlives(() => checkBeaconLimits('203.0.113.7'))).toBe(false)
    expect(
      await outlives(() =>
        checkDemoRequestLimits({ ip: '203.0.113.8', phone: '5511987654321', email: 'a@b.com.br' }),
      ),
    ).toBe(false)
  })
})
