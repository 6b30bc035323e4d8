// Where each `next start` of the end-to-end tests listens. Fixed ports, so a failing test names
// a URL one can open; E2E_PORT_BASE moves them all when 3100 and up are taken on a machine.
const base = Number(process.env.E2E_PORT_BASE ?? 3100)

function server(offset: number) {
  const port = base + offset
  return { port, url: `http://127.0.0.1:${port}` }
}

export const SERVERS = {
  /** The site on the bundled dataset (BUILDS.site): the default baseURL of every test. */
  site: server(0),
  /** The same build with leads going to Supabase, i.e. to the PostgREST double below. */
  leads: server(1),
  /** tests/support/postgrest-double.mjs: Supabase's REST interface over a migrated PGlite. */
  postgrest: server(50),
}

/** The anon key the double accepts and the `leads` server sends. */
export const POSTGREST_ANON_KEY = 'test-anon-key'
