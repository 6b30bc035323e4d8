import { READ_SECONDS_PER_DAY } from './measures.mjs'

// What one visitor's reading of one page may add in a day (docs/analytics.md, "Hostile input gets
// nothing"). A reading report is the visitor's own word, so it counts only against views of that
// page the site itself counted for that visitor that day: one new read per counted view, at most
// 100% of scroll per counted view, and READ_SECONDS_PER_DAY seconds in all. Without it one address
// could push any page's average reading time to hours. The tally is kept twice, by the day's
// visitor hash and by its address hash (collect.ts addressHash), a grant the lesser of both, so a
// client rotating its user agent gets one visitor's seconds; both are forgotten when the day ends. Pure: the memory
// ledger is here, the Redis one (shared by instances) in shared-state.ts, which applies the same
// rule in Lua.

/** One report's ask: visible seconds, deeper scroll (%), whether it is its view's first. */
export type ReadingAsk = { seconds: number; scroll: number; first: boolean }
/** What of it counts: a new read (a view measured), seconds and scroll. */
export type ReadingGrant = { read: boolean; seconds: number; scroll: number }
/** One visitor's page on one day: views counted, and the reads, seconds and scroll granted. */
export type ReadingTally = { views: number; reads: number; seconds: number; scroll: number }

export type ReadingLedger = {
  /** A view of `page` by `visitor` (from `address`, its address hash) on `day` was counted. */
  viewed(day: string, visitor: string, page: string, address?: string): Promise<void>
  /**
   * What of a report counts, within both the visitor's and the address's tally; undefined when
   * that visitor has no counted view of that page.
   */
  read(
    day: string,
    visitor: string,
    page: string,
    ask: ReadingAsk,
    address?: string,
  ): Promise<ReadingGrant | undefined>
}

/** Whole, non-negative, and at most `max`. */
function bounded(value: number, max: number): number {
  return Math.max(0, Math.min(Math.round(value) || 0, max))
}

/** The rule, applied to a tally (which it updates), and to the address's (`also`) if given. */
export function grantReading(
  tally: ReadingTally | undefined,
  ask: ReadingAsk,
  also?: ReadingTally,
) {
  if (!tally || tally.views < 1) return undefined
  const tallies = also ? [tally, also] : [tally]
  const grant: ReadingGrant = {
    read: ask.first && tallies.every((t) => t.reads < t.views),
    seconds: Math.min(
      ...tallies.map((t) => bounded(ask.seconds, READ_SECONDS_PER_DAY - t.seconds)),
    ),
    scroll: Math.min(...tallies.map((t) => bounded(ask.scroll, 100 * t.views - t.scroll))),
  }
  for (const t of tallies) {
    if (grant.read) t.reads += 1
    t.seconds += grant.seconds
    t.scroll += grant.scroll
  }
  return grant
}

/** Tallies one process keeps at most; past it they are forgotten, so reports go uncounted. */
export const MEMORY_TALLIES_MAX = 200_000

/** The ledger of this process alone (no Redis, or Redis away): today's tallies only. */
export function createMemoryLedger(max = MEMORY_TALLIES_MAX): ReadingLedger {
  let today = ''
  let tallies = new Map<string, ReadingTally>()
  /** The day's tallies; a new day forgets the last one's (its visitor hashes cannot recur). */
  const of = (day: string) => {
    if (day !== today) {
      if (day < today) return undefined
      today = day
      tallies = new Map()
    }
    return tallies
  }
  return {
    async viewed(day, visitor, page, address) {
      const map = of(day)
      if (!map) return
      for (const key of [visitor, address && `address\u0000${address}`]) {
        if (!key) continue
        const tally = map.get(`${key}\u0000${page}`)
        if (tally) tally.views += 1
        else {
          if (map.size >= max) map.clear()
          map.set(`${key}\u0000${page}`, { views: 1, reads: 0, seconds: 0, scroll: 0 })
        }
      }
    },
    async read(day, visitor, page, ask, address) {
      const map = of(day)
      const own = map?.get(`${visitor}\u0000${page}`)
      // The address's tally, when it was kept (a view counted from it); none: the visitor's alone.
      const shared = address ? map?.get(`address\u0000${address}\u0000${page}`) : undefined
      return grantReading(own, ask, shared)
    },
  }
}
