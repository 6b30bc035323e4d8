import { afterEach, describe, expect, it, vi } from 'vitest'

const SECRET_KEY = Symbol.for('vigia.internalApiSecret')
const globals = globalThis as Record<symbol, unknown>

async function internalRequest() {
  vi.resetModules()
  return import('@/lib/security/internal-request')
}

describe('the internal secret (requests a server makes to itself)', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
    delete globals[SECRET_KEY]
  })

  it('is made at start when INTERNAL_API_SECRET is unset, and every copy of the module in a process agrees', async () => {
    vi.stubEnv('INTERNAL_API_SECRET', '')
    const first = await internalRequest()
    const sent = first.internalHeaders()[first.INTERNAL_SECRET_HEADER]!
    expect(sent).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // Another bundle's copy of the modules (proxy.ts and the routes are bundled apart).
    const second = await internalRequest()
    expect(second.isInternalRequest(new Headers({ [second.INTERNAL_SECRET_HEADER]: sent }))).toBe(
      true,
    )
  })

  it('refuses a request without it or with another value', async () => {
    vi.stubEnv('INTERNAL_API_SECRET', 'a-shared-secret-of-the-operator')
    const { INTERNAL_SECRET_HEADER, isInternalRequest } = await internalRequest()
    expect(isInternalRequest(new Headers())).toBe(false)
    for (const value of ['', 'a-shared-secret-of-the-operato', 'a-shared-secret-of-the-operatorX'])
      expect(isInternalRequest(new Headers({ [INTERNAL_SECRET_HEADER]: value }))).toBe(false)
    expect(
      isInternalRequest(
        new Headers({ [INTERNAL_SECRET_HEADER]: 'a-shared-secret-of-the-operator' }),
      ),
    ).toBe(true)
  })

  it('stops the server on a secret too short to be one', async () => {
    vi.stubEnv('INTERNAL_API_SECRET', 'short')
    await expect(internalRequest()).rejects.toThrow(/INTERNAL_API_SECRET must be at least 16/)
  })
})
