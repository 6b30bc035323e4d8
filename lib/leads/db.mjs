// Database plumbing shared by the embedded lead store, `npm run leads`, the PostgREST double and
// the tests (a real PostgreSQL server is in postgres.mjs). Plain JavaScript (typed with JSDoc) so
// that node scripts can import it without a TypeScript loader.

import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'

/**
 * @typedef {{ rows: Record<string, unknown>[] }} QueryResult
 * @typedef {object} Queryable
 * @property {(sql: string, params?: unknown[]) => Promise<QueryResult>} query One statement, with $n parameters.
 * @property {(sql: string) => Promise<void>} exec Several statements, no parameters.
 * @typedef {Queryable & {
 *   kind: 'pglite' | 'postgres',
 *   transaction: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T>,
 *   close: () => Promise<void>,
 * }} Database
 * @typedef {{ name: string, sql: string }} Migration
 */

/** Where the SQL lives; resolved from the working directory, which is the project root for next, npm scripts and vitest. */
export function defaultMigrationsDir() {
  return path.resolve(process.cwd(), 'supabase', 'migrations')
}

/**
 * The migration files in the order `supabase db push` applies them (timestamped names sort).
 * @param {string} [dir]
 * @returns {Promise<Migration[]>}
 */
export async function readMigrations(dir = defaultMigrationsDir()) {
  // turbopackIgnore: the folder is read at run time from the project root (`next start` runs
  // there); without it Next's file tracing would pull the whole project into the server output.
  const names = (await fsp.readdir(/* turbopackIgnore: true */ dir))
    .filter((name) => name.endsWith('.sql'))
    .sort()
  if (names.length === 0) throw new Error(`No .sql migrations in ${dir}.`)
  return Promise.all(
    names.map(async (name) => ({
      name,
      sql: await fsp.readFile(path.join(/* turbopackIgnore: true */ dir, name), 'utf8'),
    })),
  )
}

/**
 * Applies the migrations not applied yet, each recorded in lead_store.migrations, all in one
 * transaction. Supabase keeps its own record (supabase_migrations); this one is for the embedded
 * store and test databases only, kept out of the `public` schema that PostgREST exposes.
 * @param {Database} db
 * @param {string} [dir]
 * @returns {Promise<string[]>} the names applied now
 */
export async function applyMigrations(db, dir) {
  const migrations = await readMigrations(dir)
  return db.transaction(async (tx) => {
    // Two processes migrating one PostgreSQL database at once queue here.
    if (db.kind === 'postgres')
      await tx.query(`select pg_advisory_xact_lock(hashtext('lead_store.migrations'))`)
    await tx.exec(`
      create schema if not exists lead_store;
      create table if not exists lead_store.migrations (
        name text primary key,
        applied_at timestamptz not null default now()
      );
    `)
    const done = new Set(
      (await tx.query('select name from lead_store.migrations')).rows.map((row) =>
        String(row.name),
      ),
    )
    /** @type {string[]} */
    const applied = []
    for (const migration of migrations) {
      if (done.has(migration.name)) continue
      await tx.exec(migration.sql)
      await tx.query('insert into lead_store.migrations (name) values ($1)', [migration.name])
      applied.push(migration.name)
    }
    return applied
  })
}

// Folders this process holds, on globalThis so that modules evaluated twice (`next dev` reloads)
// still see one set.
const globalForLocks = /** @type {typeof globalThis & { __vigiaLeadStoreLocks?: Set<string> }} */ (
  globalThis
)
const heldLocks = (globalForLocks.__vigiaLeadStoreLocks ??= new Set())

/**
 * PGlite keeps no lock of its own, and two processes writing one data folder would corrupt it
 * (`next dev` and `next start` side by side, say). A lock file next to the folder, holding our pid,
 * turns that into a clear error, as does a second open in the same process. A lock left by a dead
 * process is taken over.
 * @param {string} dataDir
 * @returns {() => void} releases the lock
 */
function lockDataDir(dataDir) {
  if (heldLocks.has(dataDir)) {
    throw new Error(`The embedded lead store ${dataDir} is already open in this process.`)
  }
  const lockPath = `${dataDir}.lock`
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' })
      let released = false
      const release = () => {
        if (released) return
        released = true
        heldLocks.delete(dataDir)
        process.off('exit', release)
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath)
        } catch {
          // Already gone.
        }
      }
      process.on('exit', release)
      heldLocks.add(dataDir)
      return release
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error
      const owner = Number(fs.readFileSync(lockPath, 'utf8').trim())
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new Error(
          `The embedded lead store ${dataDir} is in use by process ${owner}. ` +
            `Stop that process, or give this one its own LEADS_DATA_DIR (or, if process ${owner} ` +
            `is something else, delete ${lockPath}).`,
        )
      }
      fs.rmSync(lockPath, { force: true })
    }
  }
  throw new Error(`Could not lock the embedded lead store ${dataDir}.`)
}

/** @param {number} pid */
function isAlive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM'
  }
}

/**
 * PGlite (PostgreSQL compiled to WebAssembly), persisted in dataDir, or in memory without one.
 * @param {string} [dataDir]
 * @returns {Promise<Database>}
 */
export async function openPglite(dataDir) {
  const { PGlite } = await import('@electric-sql/pglite')
  let release = () => {}
  if (dataDir) {
    fs.mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true })
    release = lockDataDir(path.resolve(dataDir))
  }
  let pg
  try {
    pg = await PGlite.create(dataDir ? path.resolve(dataDir) : undefined)
  } catch (error) {
    release()
    throw error
  }
  const instance = pg
  /** @param {{ query: typeof instance.query, exec: typeof instance.exec }} target @returns {Queryable} */
  const wrap = (target) => ({
    query: async (sql, params) => ({ rows: (await target.query(sql, params)).rows }),
    exec: async (sql) => {
      await target.exec(sql)
    },
  })
  return {
    kind: 'pglite',
    ...wrap(instance),
    transaction: (fn) => instance.transaction((tx) => fn(wrap(tx))),
    close: async () => {
      try {
        if (!instance.closed) await instance.close()
      } finally {
        release()
      }
    },
  }
}

/**
 * Runs one statement as the role anon, the way PostgREST runs a request made with the anon key,
 * so the grants and row-level security policies of the migration apply.
 * @param {Database} db
 * @param {string} sql
 * @param {unknown[]} [params]
 * @returns {Promise<QueryResult>}
 */
export function queryAsAnon(db, sql, params) {
  return db.transaction(async (tx) => {
    await tx.exec('set local role anon')
    return tx.query(sql, params)
  })
}
