// Runs once when the server starts: opens the lead store early (PGlite takes seconds to start,
// which would otherwise land on the first visitor's request) and logs where leads go; with
// REDIS_URL, starts connecting to Redis, so that its state is logged at start-up and the first
// demo request finds the connection open. Neither waits: a server whose Redis is down still starts.
// It also starts the visit counter (lib/analytics), which writes its buffer on shutdown, and has
// the server answer the visit beacon before Next does (lib/analytics/early-beacon.ts).
// It also keeps the start-up context, for timers that must not hold a request (lib/outside-request.ts).
// It also has the server mark each request that comes straight from this machine
// (lib/security/direct-loopback.ts), which the health check's details need.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    // Before any request: the context that per-key timers start in (lib/outside-request.ts).
    const { captureRootContext } = await import('@/lib/outside-request')
    captureRootContext()
    const { installDirectLoopbackStamp } = await import('@/lib/security/direct-loopback')
    installDirectLoopbackStamp()
    const { getLeadStore } = await import('@/lib/leads')
    getLeadStore()
    const { getRedis } = await import('@/lib/redis/connection.mjs')
    getRedis()
    // The visit counter's timer, and its last write when the server stops (docs/analytics.md).
    const { startAnalytics } = await import('@/lib/analytics')
    startAnalytics()
    // The beacon, answered before Next's request handling (lib/analytics/early-beacon.ts).
    const { installEarlyBeacon } = await import('@/lib/analytics/early-beacon')
    installEarlyBeacon()
    // Each lead's e-mail, webhook and RD Station conversion, from the database's queue (issue 46).
    const { startLeadDelivery } = await import('@/lib/leads/delivery')
    startLeadDelivery()
  }
}
