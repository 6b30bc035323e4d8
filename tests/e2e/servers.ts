import { BUILDS, portFor } from '../../scripts/e2e-builds.cjs'

// Where each `next start` and test double of the end-to-end tests listens (ports from 3100;
// E2E_PORT_BASE moves them all when those are taken).
const server = portFor

export const SERVERS = {
  /** The site on the bundled dataset (BUILDS.site): the default baseURL of every test. */
  site: server(0),
  /** The same build with leads going to Supabase, i.e. to the PostgREST double below. */
  leads: server(1),
  /** tests/support/postgrest-double.mjs: Supabase's REST interface over a migrated PGlite. */
  postgrest: server(50),
  /** The "lake" build: content from the Content Lake double below, publish webhook enabled. */
  lake: server(2),
  /** tests/support/content-lake-double.mjs, started by scripts/test.mjs before the lake build. */
  lakeDouble: { port: BUILDS.lake.contentLakeDouble.port, url: BUILDS.lake.contentLakeDouble.url },
}

/** What the lake build is configured with (scripts/e2e-builds.cjs). */
export const LAKE_REVALIDATE_SECRET = BUILDS.lake.env.SANITY_REVALIDATE_SECRET

/**
 * The `leads` server's LEADS_DATA_DIR. With Supabase set and ANALYTICS_DATABASE_URL unset, its
 * visits go to an embedded PGlite in `<this>-analytics`. Emptied on every run by scripts/test.mjs,
 * so a local run starts the way CI's fresh clone does.
 */
export const LEADS_SERVER_DATA_DIR = '.data/e2e/leads'

/** The anon key the double accepts and the `leads` server sends. */
export const POSTGREST_ANON_KEY = 'test-anon-key'

/**
 * The internal secret (INTERNAL_API_SECRET) the multi-instance specs give their instances, sent as
 * X-Internal-Secret to read /api/health's details, as an operator on the machine does.
 */
export const OPERATOR_SECRET = 'e2e-operator-internal-secret'
export const OPERATOR_HEADERS = { 'x-internal-secret': OPERATOR_SECRET }
