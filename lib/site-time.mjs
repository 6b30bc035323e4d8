// The site's time zone and its two ways of writing a moment, once for the site, the Studio, the
// scripts and the analytics SQL (tests/unit/concepts.test.ts holds the migrations' zone to this
// one). Plain JavaScript without imports: the Studio's bundle and `npm run stats` load it too.

/** The zone editors and the audience think in: days are counted, and times shown, here. */
export const SITE_TIME_ZONE = 'America/Sao_Paulo'

// en-CA writes dates as YYYY-MM-DD.
const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: SITE_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
})

const dateTimeFormat = new Intl.DateTimeFormat('pt-BR', {
  timeZone: SITE_TIME_ZONE,
  dateStyle: 'short',
  timeStyle: 'short',
})

/** The calendar day (YYYY-MM-DD) of `time` in São Paulo. @param {number | Date} time */
export function siteDay(time) {
  return dayFormat.format(time)
}

/** "02/12/2026, 09:00" in São Paulo time, whatever the reader's own zone. @param {number | Date} time */
export function siteDateTime(time) {
  return dateTimeFormat.format(time)
}
