import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import {
  CANDIDATES_PER_DAY,
  CAP_PER_DAY,
  CONTACT_CHANNELS,
  MATERIAL_PAGE_PREFIX,
  NO_VARIANT_KEY,
  PROMOTE_ADDRESSES,
  PROMOTIONS_PER_DAY,
} from '@/lib/analytics/measures.mjs'
import { HOST_PATTERN, VARIANT_MAX_LENGTH, VARIANT_PATTERN } from '@/lib/attribution-fields'
import { OTHER_KEY } from '@/lib/analytics/report-db.mjs'
import { DIRECT_KEY, NO_CAMPAIGN_KEY } from '@/lib/analytics/report-schema'
import { TAG_MAX_LENGTH, UTM_KEYS } from '@/lib/campaign-tags'
import { PRIVATE_PATH, PRIVATE_SECTIONS } from '@/lib/private-sections'
import { ExpiringKeys, redisSetOnce } from '@/lib/redis/set-once'
import { retryAfterMs } from '@/lib/retry-after'
import { fleetBand } from '@/lib/roi/calculator'
import { REVIEW_PATH_PREFIX } from '@/lib/review-token'
import { scriptJson } from '@/lib/script-json'
import { SITE_TIME_ZONE, siteDay } from '@/lib/site-time.mjs'
import { asSpreadsheetText } from '@/lib/text/formula.mjs'
import { slugify } from '@/lib/text/slugify'
import {
  FLEET_SIZE_LABELS,
  FLEET_SIZE_MAX,
  FLEET_SIZES,
} from '@/lib/validations/demo-request-fields'
import {
  CAMPAIGN_PREFIX,
  MATERIALS_PREFIX,
  SLUG_MATCHER_SEGMENT,
  SLUG_MAX_LENGTH,
  SLUG_PATTERN,
  SLUG_SEGMENT,
} from '@/sanity/lib/paths'
import { APP_ROUTES } from '@/sanity/lib/routed-type-rules'

// Each concept is written once in code (issue 50, "Each concept once"); where a copy must stay
// elsewhere (a migration's SQL, which cannot import, or deploy/nginx.conf), this file holds it to
// the code's value, so a drift on either side fails here.

const root = path.resolve(__dirname, '../..')
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')
const MIGRATIONS = readdirSync(path.join(root, 'supabase/migrations'))
  .filter((file) => file.endsWith('.sql'))
  .sort()
  .map((file) => ({ file, sql: read(`supabase/migrations/${file}`) }))

/** The latest definition of an SQL function (applied migrations are history; the last one wins). */
function functionBody(name: string): string {
  const start = new RegExp(`create (?:or replace )?function ${name.replace('.', '\\.')}\\(`)
  const latest = MIGRATIONS.filter(({ sql }) => start.test(sql)).at(-1)
  if (!latest) throw new Error(`no migration defines ${name}`)
  const from = latest.sql.search(start)
  const open = latest.sql.indexOf('$$', from)
  return latest.sql.slice(open, latest.sql.indexOf('$$;', open + 2))
}

/** Every '(...)' key literal in SQL text, e.g. '(outras)'. */
const keyLiterals = (sql: string) =>
  new Set([...sql.matchAll(/'(\([^')]*\))'/g)].map((match) => match[1]))

describe('the slug pattern', () => {
  it('is the one the lead page policy checks', () => {
    expect(read('supabase/migrations/20261210000000_lead_page.sql')).toContain(
      `char_length(pagina) between 1 and ${SLUG_MAX_LENGTH} and pagina ~ '^${SLUG_SEGMENT}$'`,
    )
  })

  it('has the characters proxy.ts routes (its looser literal), no more and no fewer', () => {
    const matcher = new RegExp(`^${SLUG_MATCHER_SEGMENT}$`)
    for (let code = 32; code < 127; code++) {
      const char = String.fromCharCode(code)
      expect(matcher.test(char), char).toBe(SLUG_PATTERN.test(`a${char}a`))
    }
  })
})

describe('the campaign path', () => {
  it('is the one the lead counts build in SQL', () => {
    const built = MIGRATIONS.flatMap(({ sql }) =>
      [...sql.matchAll(/'([^']*)' \|\| d\.pagina/g)].map((match) => match[1]),
    )
    expect(built.length).toBeGreaterThan(0)
    for (const prefix of built) expect(prefix).toBe(`${CAMPAIGN_PREFIX}/`)
  })
})

describe("the material's page", () => {
  it('is where conversion_counts credits a download stored without its page', () => {
    // measures.mjs keeps its own copy (plain JavaScript for the node scripts): the routes' own.
    expect(MATERIAL_PAGE_PREFIX).toBe(MATERIALS_PREFIX)
    expect(functionBody('analytics.conversion_counts')).toContain(
      `'${MATERIAL_PAGE_PREFIX}/' || c.material`,
    )
  })
})

describe('the campaign tags', () => {
  it('are bounded in the lead attribution policy as in code', () => {
    const sql = read('supabase/migrations/20270201000000_lead_attribution.sql')
    for (const key of UTM_KEYS)
      expect(sql).toContain(`(char_length(${key}) between 1 and ${TAG_MAX_LENGTH}`)
    expect(sql).toContain(`referrer_host ~ '^[a-z0-9.-]{1,${TAG_MAX_LENGTH}}$'`)
    expect(HOST_PATTERN.source).toBe(`^[a-z0-9.-]{1,${TAG_MAX_LENGTH}}$`)
  })

  it('bound the values marketing names in the Studio', () => {
    expect(read('supabase/migrations/20270201000100_analytics_reach.sql')).toContain(
      `key text not null check (char_length(key) between 1 and ${TAG_MAX_LENGTH})`,
    )
  })
})

describe('the counting caps and placeholder keys', () => {
  it('are the ones record_views applies', () => {
    const body = functionBody('analytics.record_views')
    expect(body).toContain(`) >= ${CAP_PER_DAY}\n`)
    expect(body).toContain(
      `cardinality(candidate.address_buckets) >= ${PROMOTE_ADDRESSES} and promoted < ${PROMOTIONS_PER_DAY}`,
    )
    expect(keyLiterals(body)).toEqual(new Set([OTHER_KEY]))
    expect(body).toContain(`) < ${CANDIDATES_PER_DAY} then`)
  })

  it('count the contact channels the code declares', () => {
    const body = functionBody('analytics.record_views')
    expect(body).toContain(
      `foreach channel in array array[${CONTACT_CHANNELS.map((c) => `'${c}'`).join(', ')}] loop`,
    )
  })

  it('are the ones conversion_counts gives a lead or a download stored without its keys', () => {
    expect(keyLiterals(functionBody('analytics.conversion_counts'))).toEqual(
      new Set([NO_CAMPAIGN_KEY, DIRECT_KEY, NO_VARIANT_KEY]),
    )
  })

  it("bound a lead's variant as the counting cleans it", () => {
    const sql = read('supabase/migrations/20270310000000_experiment_variant.sql')
    expect(sql).toContain(`char_length(variant) <= ${VARIANT_MAX_LENGTH}`)
    // The same pattern, in POSIX syntax (no (?: ) groups, no escaped '/').
    const posix = VARIANT_PATTERN.source.replaceAll('(?:', '(').replaceAll('\\/', '/')
    expect(sql).toContain(`variant ~ '${posix}'`)
  })
})

describe('the São Paulo day', () => {
  it('is counted in the same zone by every migration', () => {
    const zones = MIGRATIONS.flatMap(({ sql }) =>
      [...sql.matchAll(/time zone '([^']+)'/g)].map((match) => match[1]),
    )
    expect(zones.length).toBeGreaterThan(0)
    expect(new Set(zones)).toEqual(new Set([SITE_TIME_ZONE]))
  })

  it('turns at midnight there, not in UTC', () => {
    expect(siteDay(Date.parse('2026-11-28T02:00:00Z'))).toBe('2026-11-27')
    expect(siteDay(Date.parse('2026-11-28T03:00:00Z'))).toBe('2026-11-28')
  })
})

describe('the sections that are not the public site', () => {
  it('are not counted by the beacon', () => {
    for (const section of PRIVATE_SECTIONS) {
      expect(PRIVATE_PATH.test(`/${section}`)).toBe(true)
      expect(PRIVATE_PATH.test(`/${section}/x`)).toBe(true)
    }
    expect(PRIVATE_PATH.test('/p/studio')).toBe(false)
    expect(PRIVATE_PATH.test('/studios')).toBe(false)
  })

  it('are reserved from slugs, review links among them', () => {
    for (const section of PRIVATE_SECTIONS) expect(APP_ROUTES.has(section), section).toBe(true)
    expect(PRIVATE_SECTIONS).toContain(REVIEW_PATH_PREFIX.slice(1))
  })

  it('are never cached by deploy/nginx.conf', () => {
    const conf = read('deploy/nginx.conf')
    const uncached = /location ~ (\S+) \{(?![^}]*\bproxy_cache vigia)[^}]*proxy_no_cache 1;/.exec(
      conf,
    )
    expect(uncached).not.toBeNull()
    const pattern = new RegExp(uncached![1]!)
    for (const section of PRIVATE_SECTIONS) {
      // Its own prefix location without a cache, or the never-cached regex location.
      const own = new RegExp(`location \\^~ /${section}/ \\{([^}]*)\\}`).exec(conf)
      if (own) expect(own[1]).not.toMatch(/proxy_cache /)
      else expect(pattern.test(`/${section}/x`), section).toBe(true)
    }
  })
})

describe('the fleet-size bands', () => {
  it('say the same bounds in their key, their label and their largest fleet', () => {
    let min = 1
    for (const size of FLEET_SIZES) {
      const max = FLEET_SIZE_MAX[size]
      if (max === Infinity) {
        expect(size).toBe(`${min - 1}+`)
        expect(FLEET_SIZE_LABELS[size]).toBe(`Mais de ${min - 1} veículos`)
      } else {
        expect(size).toBe(`${min}-${max}`)
        expect(FLEET_SIZE_LABELS[size]).toBe(`${min} a ${max} veículos`)
      }
      expect(fleetBand(min)).toBe(size)
      if (max !== Infinity) expect(fleetBand(max)).toBe(size)
      min = max + 1
    }
    expect(FLEET_SIZE_MAX[FLEET_SIZES.at(-1)!]).toBe(Infinity)
  })
})

describe('the small shared helpers', () => {
  it('reads Retry-After uncapped, a past date as now (the callers cap it)', () => {
    const now = Date.parse('2026-11-27T10:00:00Z')
    expect(retryAfterMs(' 99999 ', now)).toBe(99_999_000)
    expect(retryAfterMs('Fri, 27 Nov 2026 09:00:00 GMT', now)).toBe(0)
  })

  it('guards every character a spreadsheet starts a formula with', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      expect(asSpreadsheetText(`${start}1`)).toBe(`'${start}1`)
    expect(asSpreadsheetText('a=1')).toBe('a=1')
  })

  it('slugifies without accents, within the bound, keeping only what it is asked to', () => {
    expect(slugify('  Base legal e informação! ', 60)).toBe('base-legal-e-informacao')
    expect(slugify('black_friday 2026', 100, '_')).toBe('black_friday-2026')
    expect(slugify('black_friday', 100)).toBe('black-friday')
    expect(slugify('ab cd', 3)).toBe('ab')
  })

  it('escapes < in JSON placed in a script', () => {
    expect(scriptJson({ text: '</script><script>x' })).toBe(
      '{"text":"\\u003c/script>\\u003cscript>x"}',
    )
  })

  it('holds a key until it expires, without Redis', async () => {
    expect(await redisSetOnce(undefined, 'test', 'k', 1000)).toBeUndefined()
    const keys = new ExpiringKeys({ sweepAt: 0 })
    expect(keys.claim('k', 1000, 0)).toBe(true)
    expect(keys.claim('k', 1000, 999)).toBe(false)
    expect(keys.claim('k', 1000, 1000)).toBe(true)
    keys.delete('k')
    expect(keys.claim('k', 1000, 1001)).toBe(true)
    const bounded = new ExpiringKeys({ sweepAt: 2, max: 2 })
    bounded.claim('a', 1000, 0)
    bounded.claim('b', 1000, 0)
    // Full of live keys: cleared rather than grown, so 'a' is free again.
    expect(bounded.claim('c', 1000, 1)).toBe(true)
    expect(bounded.claim('a', 1000, 1)).toBe(true)
  })
})
