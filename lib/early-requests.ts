import http from 'node:http'

// Hooks that see each request this process's HTTP servers receive before Next does, installed once
// from instrumentation.ts (`next start` and the standalone server run Next inside a node:http
// server of this process). A hook returns true when it has answered the request itself; Next then
// never sees it. Used for the server's mark on loopback requests (lib/security/direct-loopback.ts)
// and the visit beacon (lib/analytics/early-beacon.ts).

export type EarlyRequestHook = (
  request: http.IncomingMessage,
  response: http.ServerResponse,
) => boolean

/** Kept on globalThis: each bundle that loads this module shares the one list and the one patch. */
const HOOKS = Symbol.for('vigia.earlyRequestHooks')

/** Adds `hook` under `name` (a second call with the same name changes nothing), in call order. */
export function addEarlyRequestHook(name: string, hook: EarlyRequestHook): void {
  const store = globalThis as Record<symbol, Map<string, EarlyRequestHook> | undefined>
  let hooks = store[HOOKS]
  if (!hooks) {
    const list = new Map<string, EarlyRequestHook>()
    hooks = store[HOOKS] = list
    const emit = http.Server.prototype.emit as (
      event: string | symbol,
      ...args: unknown[]
    ) => boolean
    http.Server.prototype.emit = function (
      this: http.Server,
      event: string | symbol,
      ...args: unknown[]
    ) {
      if (event === 'request') {
        const [request, response] = args as [http.IncomingMessage, http.ServerResponse]
        for (const each of list.values()) if (each(request, response)) return true
      }
      return emit.call(this, event, ...args)
    } as typeof http.Server.prototype.emit
  }
  if (!hooks.has(name)) hooks.set(name, hook)
}
