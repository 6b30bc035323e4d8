// What the Studio refuses or warns about in an experiment (sanity/schema-types/experiment.ts), as
// pure functions of the documents so the tests hold them: the variants' shape, one running
// experiment a page, and edits that would invalidate a running experiment's figures.

import { instant, isVisible } from '../content/visibility'
import { SLUG_PATTERN } from '../../sanity/lib/paths'
import { CONTROL } from './ids'

export type ExperimentDocument = {
  _id?: string
  title?: string
  page?: { _ref?: string } | null
  visibleFrom?: string | null
  visibleUntil?: string | null
  variants?: { key?: string; label?: string; weight?: number }[] | null
}

/** Why the variants list is refused, in Portuguese, or undefined. */
export function variantsProblem(value: unknown): string | undefined {
  const variants = (Array.isArray(value) ? value : []) as NonNullable<
    ExperimentDocument['variants']
  >
  if (variants.length < 2 || variants.length > 3)
    return 'Um experimento tem duas ou três variantes (a original e uma ou duas novas).'
  if (variants[0]?.key !== CONTROL)
    return `A primeira variante precisa ter a chave "${CONTROL}": é a página como está, a base da comparação.`
  const keys = variants.map((variant) => variant.key ?? '')
  const bad = keys.find((key) => !SLUG_PATTERN.test(key))
  if (bad !== undefined)
    return `A chave "${bad}" não serve: use só minúsculas sem acento, números e hífens.`
  if (new Set(keys).size !== keys.length) return 'Cada variante precisa de uma chave diferente.'
  return undefined
}

function span(doc: ExperimentDocument): [number, number] {
  return [instant(doc.visibleFrom) ?? -Infinity, instant(doc.visibleUntil) ?? Infinity]
}

/**
 * The refusal when another experiment on the same page has a window that overlaps this one's
 * (two would run at once there), or undefined.
 */
export function experimentOverlapMessage(
  doc: ExperimentDocument,
  others: readonly ExperimentDocument[],
): string | undefined {
  const page = doc.page?._ref
  if (!page) return undefined
  const [start, end] = span(doc)
  if (end <= start) return undefined
  const clash = others.find((other) => {
    if (other.page?._ref !== page) return false
    const [otherStart, otherEnd] = span(other)
    return otherEnd > otherStart && start < otherEnd && otherStart < end
  })
  return clash
    ? `Esta página já tem um experimento nesse período ("${clash.title ?? 'sem nome'}"). Só um experimento por página de cada vez: encerre o outro ou escolha datas que não se sobreponham.`
    : undefined
}

const shape = (doc: ExperimentDocument) =>
  JSON.stringify({
    page: doc.page?._ref ?? null,
    variants: (doc.variants ?? []).map((variant) => [variant.key ?? '', variant.weight ?? null]),
  })

/**
 * The warning when the published experiment is running and this edit changes its page, its
 * variants or their weights: the figures gathered so far would no longer compare like with like.
 */
export function runningChangesWarning(
  published: ExperimentDocument | null | undefined,
  edited: ExperimentDocument,
  now = Date.now(),
): string | undefined {
  if (!published || !isVisible(published, now)) return undefined
  if (shape(published) === shape(edited)) return undefined
  return 'Este experimento está no ar: mudar a página, as variantes ou os pesos mistura números de versões diferentes e invalida o resultado até aqui. Prefira encerrar este experimento e começar outro.'
}
