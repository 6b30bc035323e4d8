// A Sanity `date` ("2026-11-22") as Brazilians write it: "22 de novembro de 2026". Read and
// written in UTC, so the day never shifts with the server's time zone.
const FORMAT = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'long', timeZone: 'UTC' })

export function formatLegalDate(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`)
  return Number.isNaN(parsed.getTime()) ? date : FORMAT.format(parsed)
}
