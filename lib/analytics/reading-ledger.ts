import { READ_SECONDS_PER_DAY } from './measures.mjs'

// What one visitor's reading of one page may add in a day (docs/analytics.md, "Hostile input gets
// nothing"): per counted view, one read and 100% of scroll; READ_SECONDS_PER_DAY seconds in all.
// Tallied by visitor and by address hash, a grant the lesser of both, so rotating user agents
// gains nothing. shared-state.ts applies the same rule in Lua.

/** One report's ask: visible seconds, deeper scroll (%), whether it is its view's first. */
export type ReadingAsk = { seconds: number; scroll: number; first: boolean }
/** What of it counts: a new read (a view measured), seconds and scroll. */
export type ReadingGrant = { read: boolean; seconds: number; scroll: number }
type ReadingTally = { views: number; reads: number; seconds: number; scroll: number }

export type ReadingLedger = {
  /** A view of `page` by `visitor` (from `address`, its address hash) on `day` was counted. */
  viewed(day: string, visitor: string, page: string, address?: string): Promise<void>
  /** What of a report counts; undefined when that visitor has no counted view of that page. */
  read(
    day: string,
    visitor: string,
    page: string,
    ask: ReadingAsk,
    address?: string,
  ): Promise<ReadingGrant | undefined>
}

/** Whole, non-negative, and at most `max`. */
const bounded = (value: number, max: number) => Math.max(0, Math.min(Math.round(value) || 0, max))

/**
 * A map of one day at a time, for `day`: a later day forgets the last one's (its visitor hashes
 * cannot recur), an earlier one gets none.
 */
export function todaysMap<V>() {
  let today = ''
  let map = new Map<string, V>()
  return (day: string): Map<string, V> | undefined => {
    if (day !== today) {
      if (day < today) return undefined
      today = day
      map = new Map()
    }
    return map
  }
}

/** Tallies one process keeps at most; past it they are forgotten, so reports go uncounted. */
export const MEMORY_TALLIES_MAX = 200_000

/** The ledger of this process alone (no Redis, or Redis away): today's tallies only. */
export function createMemoryLedger(max = MEMORY_TALLIES_MAX): ReadingLedger {
  const tallies = todaysMap<ReadingTally>()
  return {
    async viewed(day, visitor, page, address) {
      const map = tallies(day)
      for (const key of [visitor, address && `address\u0000${address}`]) {
        if (!map || !key) continue
        const tally = map.get(`${key}\u0000${page}`)
        if (tally) tally.views += 1
        else {
          if (map.size >= max) map.clear()
          map.set(`${key}\u0000${page}`, { views: 1, reads: 0, seconds: 0, scroll: 0 })
        }
      }
    },
    async read(day, visitor, page, ask, address) {
      const map = tallies(day)
      const own = map?.get(`${visitor}\u0000${page}`)
      if (!own || own.views < 1) return undefined
      // The address's tally, when one was kept; none: the visitor's alone.
      const shared = address ? map?.get(`address\u0000${address}\u0000${page}`) : undefined
      const both = shared ? [own, shared] : [own]
      const grant: ReadingGrant = {
        read: ask.first && both.every((t) => t.reads < t.views),
        seconds: Math.min(
          ...both.map((t) => bounded(ask.seconds, READ_SECONDS_PER_DAY - t.seconds)),
        ),
        scroll: Math.min(...both.map((t) => bounded(ask.scroll, 100 * t.views - t.scroll))),
      }
      for (const t of both) {
        t.reads += grant.read ? 1 : 0
        t.seconds += grant.seconds
        t.scroll += grant.scroll
      }
      return grant
    },
  }
}
