// Once per server start, so that no visitor pays for it: opens the lead store (PGlite takes
// seconds) and Redis, starts the visit counter's timer (it writes its buffer on shutdown) and the
// lead deliveries' poller, and
// keeps the start-up context that per-key timers run in (lib/outside-request.ts). None of it
// waits: a server whose Redis is down still starts.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { captureRootContext } = await import('@/lib/outside-request')
    captureRootContext()
    const { getLeadStore } = await import('@/lib/leads')
    getLeadStore()
    const { getRedis } = await import('@/lib/redis/connection.mjs')
    getRedis()
    const { startAnalytics } = await import('@/lib/analytics')
    startAnalytics()
    // Each lead's e-mail, webhook and RD Station conversion, from the database's queue (issue 46).
    const { startLeadDelivery } = await import('@/lib/leads/delivery')
    startLeadDelivery()
  }
}
