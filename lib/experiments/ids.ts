// The names an experiment's parts go by, apart from how a variant is chosen (assign.ts hashes
// with node:crypto): the Studio's browser bundle needs these names and must reach no Node
// built-in (tests/unit/import-graph.test.ts).

/** The default's key: every experiment has one, and bots, previews and review links get it. */
export const CONTROL = 'controle'

/** '<experiment>/<variant>', the form in meta tags, analytics rows and lead columns. */
export function variantId(experiment: string, variant: string): string {
  return `${experiment}/${variant}`
}

/** The two halves of a variant id, or undefined when it is not of the form '<slug>/<slug>'. */
export function parseVariantId(id: string): { experiment: string; variant: string } | undefined {
  const match = /^([a-z0-9]+(?:-[a-z0-9]+)*)\/([a-z0-9]+(?:-[a-z0-9]+)*)$/.exec(id)
  return match ? { experiment: match[1]!, variant: match[2]! } : undefined
}
