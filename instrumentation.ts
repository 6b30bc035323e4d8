// Runs once when the server starts: opens the lead store early (PGlite takes seconds to start,
// which would otherwise land on the first visitor's request) and logs where leads go.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { getLeadStore } = await import('@/lib/leads')
    getLeadStore()
  }
}
