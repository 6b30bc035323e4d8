// Once per server start, so that no visitor pays for it: opens the lead store and Redis, starts
// the visit counter's timer (it writes its buffer on shutdown) and the lead deliveries' poller,
// and keeps the start-up context that per-key timers run in (lib/outside-request.ts). Next takes
// no request until this resolves, and it waits only for the stores on this machine's disk: PGlite
// holds the CPU for seconds while it opens, which would otherwise land on the first visitors'
// requests. Nothing on the network is waited for: a server whose Redis is down still starts.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { captureRootContext } = await import('@/lib/outside-request')
    captureRootContext()
    const { getLeadStore } = await import('@/lib/leads')
    getLeadStore()
    const { getRedis } = await import('@/lib/redis/connection.mjs')
    getRedis()
    const { startAnalytics } = await import('@/lib/analytics')
    const storesOpen = startAnalytics()
    // Each lead's e-mail, webhook and RD Station conversion, from the database's queue (issue 46).
    const { startLeadDelivery } = await import('@/lib/leads/delivery')
    startLeadDelivery()
    // The lead store's PGlite, when it is the embedded one, is the visits' too (lib/analytics).
    await storesOpen
  }
}
