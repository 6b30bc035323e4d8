// How the calculator's figures read in Brazilian Portuguese, the same on the server and in the
// browser (the same Intl data in Node and in every browser the site supports).

const compactReais = new Intl.NumberFormat('pt-BR', {
  style: 'currency',
  currency: 'BRL',
  notation: 'compact',
  maximumFractionDigits: 1,
})
const wholeReais = new Intl.NumberFormat('pt-BR', {
  style: 'currency',
  currency: 'BRL',
  maximumFractionDigits: 0,
})
const percent = new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 0 })
const decimal = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 })

/** Intl separates "R$" from the number with a no-break space; the stored texts use a plain one. */
export function plainSpaces(text: string): string {
  return text.replace(/[\u00a0\u202f]/g, ' ')
}

/** Large amounts as marketing writes them: "R$ 150 mil", "R$ 1,2 mi"; small ones whole: "R$ 950". */
export function formatReais(amount: number): string {
  return amount >= 10_000 ? compactReais.format(amount) : wholeReais.format(amount)
}

/** An exact amount in whole reais: "R$ 25.000". */
export function formatWholeReais(amount: number): string {
  return wholeReais.format(amount)
}

/** "6 meses", "1 mês", "menos de 1 mês"; a part of a month counts as a month. */
export function formatMonths(months: number | null): string {
  if (months === null) return 'não se paga'
  if (months < 1) return 'menos de 1 mês'
  // Rounded to a tenth first, so 6.000000001 (floating point) reads as 6, not 7.
  const whole = Math.ceil(Math.round(months * 10) / 10)
  return whole === 1 ? '1 mês' : `${decimal.format(whole)} meses`
}

/** ROI as a percentage: "300%"; past 10.000% only that it is more. */
export function formatRoi(roi: number | null): string {
  if (roi === null) return 'não se paga em 2 anos'
  if (roi > 100) return `mais de ${percent.format(100)}`
  return percent.format(roi)
}

/** A count such as incidents a year: "24", "1,4". */
export function formatCount(value: number): string {
  return decimal.format(value)
}
