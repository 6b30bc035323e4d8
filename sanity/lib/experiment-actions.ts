// What the experiment's two Studio actions write (sanity/actions/experiment-actions.tsx): ending it,
// and making one variant the page's default. Pure, so the mutations are tested on known documents
// (tests/unit/experiment-actions.test.ts); the action sends them in one transaction, so the site
// never shows a page changed without its experiment ended, or the reverse.

import { CONTROL } from '../../lib/experiments/assign'

type Reference = { _ref?: string }
type Image = { asset?: Reference | null } & Record<string, unknown>

export type ExperimentDoc = {
  _id: string
  _type: 'experiment'
  _rev?: string
  page?: Reference
  variants?: { key?: string; label?: string }[]
  visibleFrom?: string | null
  visibleUntil?: string | null
} & Record<string, unknown>

type HeroVariantEntry = {
  _key: string
  experiment?: Reference
  variant?: string
  headline?: string | null
  description?: string | null
  ctaLabel?: string | null
  visual?: Image | null
}

type Hero = {
  _key?: string
  _type?: string
  primaryCta?: string | ({ label?: string } & Record<string, unknown>) | null
  experimentVariants?: HeroVariantEntry[] | null
} & Record<string, unknown>

export type PageDoc = {
  _id: string
  _type: 'landingPage' | 'campaignPage' | string
  _rev?: string
  hero?: Hero
  blocks?: Hero[]
} & Record<string, unknown>

export type Mutation =
  | { createOrReplace: Record<string, unknown> & { _id: string } }
  | { delete: { id: string } }
  | {
      patch: {
        id: string
        ifRevisionID?: string
        set?: Record<string, unknown>
        unset?: string[]
      }
    }

const SYSTEM_FIELDS = ['_rev', '_createdAt', '_updatedAt']

const publishedId = (id: string) => id.replace(/^drafts\./, '')

/**
 * Why the experiment cannot be ended or decided now, in Portuguese, or undefined when it can: it
 * was never published, or its end has passed.
 */
export function experimentActionProblem(
  published: ExperimentDoc | null | undefined,
  now = Date.now(),
): string | undefined {
  if (!published)
    return 'Publique o experimento antes: só um experimento publicado pode ser encerrado.'
  const ended = published.visibleUntil && Date.parse(published.visibleUntil) <= now
  if (ended) return 'Este experimento já terminou.'
  return undefined
}

/**
 * Ending: the window's end set to `now` on the published document, the editor's draft (if any)
 * published with it, so a pending edit is not left behind as a draft of an ended experiment.
 */
export function endExperimentMutations(
  published: ExperimentDoc,
  draft: ExperimentDoc | null | undefined,
  now: string,
): Mutation[] {
  const id = publishedId(published._id)
  // A start still in the future would leave an end before it (the window's validation refuses
  // that): an experiment that never ran, so the start goes.
  const notStarted = (doc: ExperimentDoc) =>
    Boolean(doc.visibleFrom && Date.parse(doc.visibleFrom) > Date.parse(now))
  if (!draft) {
    const set = notStarted(published)
      ? { visibleFrom: null, visibleUntil: now }
      : { visibleUntil: now }
    return [{ patch: { id, ifRevisionID: published._rev, set } }]
  }
  const copy = Object.fromEntries(
    Object.entries(draft).filter(([key]) => !SYSTEM_FIELDS.includes(key)),
  )
  const visibleFrom = notStarted(draft) ? null : draft.visibleFrom
  return [
    { createOrReplace: { ...copy, _id: id, visibleFrom, visibleUntil: now } },
    { delete: { id: draft._id } },
  ]
}

/** Where the page's hero is, as a patch path: the home page's `hero`, a campaign page's block. */
function heroOf(page: PageDoc): { path: string; hero: Hero } | undefined {
  if (page._type === 'landingPage') return page.hero ? { path: 'hero', hero: page.hero } : undefined
  const block = page.blocks?.find((entry) => entry._type === 'heroBlock')
  return block?._key ? { path: `blocks[_key=="${block._key}"]`, hero: block } : undefined
}

/**
 * Making a variant the default: its values (only the fields it sets) become the hero's own, this
 * experiment's variant entries leave the hero (they show nothing once it ended), and the
 * experiment ends. Refused with a Portuguese reason when the page has an unpublished draft (the
 * published page would change under the editor's draft), the variant is the default already, or
 * the page has no values for it.
 */
export function promoteVariantMutations({
  experiment,
  experimentDraft,
  page,
  pageDraft,
  variant,
  now,
}: {
  experiment: ExperimentDoc
  experimentDraft?: ExperimentDoc | null
  page: PageDoc | null | undefined
  pageDraft?: PageDoc | null
  variant: string
  now: string
}): { mutations: Mutation[] } | { problem: string } {
  if (variant === CONTROL)
    return { problem: 'A versão "controle" já é a página como está: use "Encerrar experimento".' }
  if (!page) return { problem: 'A página deste experimento não está publicada.' }
  if (pageDraft)
    return {
      problem:
        'A página tem alterações não publicadas. Publique ou descarte o rascunho da página e tente de novo.',
    }
  const found = heroOf(page)
  if (!found) return { problem: 'A página não tem um destaque (hero) para receber a versão.' }
  const { path, hero } = found
  const experimentId = publishedId(experiment._id)
  const entries = hero.experimentVariants ?? []
  const entry = entries.find(
    (candidate) => candidate.experiment?._ref === experimentId && candidate.variant === variant,
  )
  if (!entry)
    return {
      problem: `A página não tem os textos da versão "${variant}": nada a copiar. Encerre o experimento.`,
    }

  const set: Record<string, unknown> = {}
  if (entry.headline) set[`${path}.headline`] = entry.headline
  if (entry.description) set[`${path}.description`] = entry.description
  if (entry.ctaLabel)
    set[
      typeof hero.primaryCta === 'object' && hero.primaryCta
        ? `${path}.primaryCta.label`
        : `${path}.primaryCta`
    ] = entry.ctaLabel
  if (entry.visual?.asset?._ref) set[`${path}.visual`] = entry.visual
  const unset = entries
    .filter((candidate) => candidate.experiment?._ref === experimentId)
    .map((candidate) => `${path}.experimentVariants[_key=="${candidate._key}"]`)

  return {
    mutations: [
      { patch: { id: page._id, ifRevisionID: page._rev, set, unset } },
      ...endExperimentMutations(experiment, experimentDraft, now),
    ],
  }
}
