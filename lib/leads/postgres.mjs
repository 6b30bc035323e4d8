// A real PostgreSQL server (a Supabase project's connection string works) for `npm run leads`,
// `npm run stats`, the integration tests and the visit counts in production
// (ANALYTICS_DATABASE_URL, lib/analytics), behind the same Database interface as the embedded
// store. Apart from lib/leads/db.mjs because leads are never written through it: they go through
// Supabase's REST API or to PGlite.

/**
 * @typedef {import('./db.mjs').Database} Database
 * @typedef {import('./db.mjs').Queryable} Queryable
 */

/**
 * A real PostgreSQL server through node-postgres.
 * @param {string} connectionString
 * @returns {Promise<Database>}
 */
export async function openPostgres(connectionString) {
  const { default: pg } = await import('pg')
  const pool = new pg.Pool({
    connectionString,
    max: 4,
    // bigint ids as numbers, as PGlite and PostgREST give them, while they fit.
    types: {
      getTypeParser: (oid, format) =>
        oid === pg.types.builtins.INT8
          ? (/** @type {string} */ value) => {
              const number = Number(value)
              return Number.isSafeInteger(number) ? number : value
            }
          : pg.types.getTypeParser(oid, format),
    },
  })
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {})
  /** @param {{ query: (sql: string, params?: unknown[]) => Promise<{ rows: any[] }> }} target @returns {Queryable} */
  const wrap = (target) => ({
    query: async (sql, params) => ({ rows: (await target.query(sql, params)).rows }),
    exec: async (sql) => {
      await target.query(sql)
    },
  })
  return {
    kind: 'postgres',
    ...wrap(pool),
    transaction: async (fn) => {
      const client = await pool.connect()
      try {
        await client.query('begin')
        const result = await fn(wrap(client))
        await client.query('commit')
        return result
      } catch (error) {
        await client.query('rollback').catch(() => {})
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}
