// What the experiment's two Studio actions write (sanity/actions/experiment-actions.tsx): ending it,
// and making one variant the page's default. Pure, so the mutations are tested on known documents
// (tests/unit/experiment-actions.test.ts); the action sends them in one transaction, so the site
// never shows a page changed without its experiment ended, or the reverse. Every document the
// transaction writes is pinned to the state the action read, so a concurrent edit makes it fail
// (409) rather than be overwritten or, as a draft published later, undo it.

import { BLOCK_SCHEMA_TYPES } from '../../components/blocks/schemas'
import { CONTROL } from '../../lib/experiments/ids'
import { landingPageType } from '../schema-types/landing-page'

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

type Entry = { _key: string; experiment?: Reference; variant?: string } & Record<string, unknown>
type Owner = { _key?: string; _type?: string; experimentVariants?: Entry[] | null } & Record<
  string,
  unknown
>

export type PageDoc = {
  _id: string
  _type: 'landingPage' | 'campaignPage' | string
  _rev?: string
  hero?: Owner
  blocks?: Owner[]
} & Record<string, unknown>

export type Mutation =
  | { create: Record<string, unknown> & { _id: string; _type: string } }
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
const draftId = (id: string) => `drafts.${publishedId(id)}`

/**
 * The transaction fails unless `id` is still at `rev`: the patch Sanity's own publish operation
 * sends before replacing a document ("hack until other mutations support revision locking").
 */
function atRevision(id: string, rev: string | undefined): Mutation {
  return { patch: { id, ifRevisionID: rev, unset: ['_revision_lock_pseudo_field_'] } }
}

/**
 * The transaction fails unless `id` does not exist: `create` fails on an existing document (the
 * Mutation API), and the `delete` after it leaves nothing behind.
 */
function absent(id: string, type: string): Mutation[] {
  return [{ create: { _id: id, _type: type } }, { delete: { id } }]
}

/** A draft's weak references to documents it published with made strong, as Sanity's publish does. */
function strengthenOnPublish(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strengthenOnPublish)
  if (!value || typeof value !== 'object') return value
  const record = value as Record<string, unknown>
  if (typeof record._ref === 'string' && record._strengthenOnPublish) {
    const { _strengthenOnPublish: strengthen, _weak: weak, ...rest } = record
    return (strengthen as { weak?: boolean }).weak ? { ...rest, _weak: weak } : rest
  }
  return Object.fromEntries(
    Object.entries(record).map(([key, entry]) => [key, strengthenOnPublish(entry)]),
  )
}

/** The page has a draft: making a variant its default would be undone when the draft is published. */
export const PAGE_DRAFT_PROBLEM =
  'A página tem alterações não publicadas. Publique ou descarte o rascunho da página e tente de novo.'

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
 * published with it, so a pending edit is not left behind as a draft of an ended experiment. The
 * published document must still be at the revision read, and the draft too, or still absent: a
 * draft made meanwhile and published later would bring the experiment back.
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
    return [
      ...absent(draftId(id), published._type),
      { patch: { id, ifRevisionID: published._rev, set } },
    ]
  }
  const copy = strengthenOnPublish(
    Object.fromEntries(Object.entries(draft).filter(([key]) => !SYSTEM_FIELDS.includes(key))),
  ) as Record<string, unknown>
  const visibleFrom = notStarted(draft) ? null : draft.visibleFrom
  return [
    atRevision(id, published._rev),
    atRevision(draft._id, draft._rev),
    { createOrReplace: { ...copy, _id: id, visibleFrom, visibleUntil: now } },
    { delete: { id: draft._id } },
  ]
}

/** Entry field → owner field, as the schema declares them (sanity/schema-types/variants.ts). */
type Paths = Record<string, string>
const declared = (fields: readonly unknown[] | undefined): Paths | undefined =>
  (fields as { variantPaths?: Paths }[] | undefined)?.find((field) => field.variantPaths)
    ?.variantPaths
const BLOCK_PATHS = new Map<string, Paths | undefined>(
  BLOCK_SCHEMA_TYPES.map((type) => [type.name, declared(type.fields)]),
)
const HOME_HERO_PATHS = declared(
  (landingPageType.fields.find((field) => field.name === 'hero') as { fields?: unknown[] }).fields,
)

/** The page's owners of variant-able fields, as patch paths: the home page's hero, its blocks. */
function variantOwners(page: PageDoc): { path: string; owner: Owner; paths: Paths }[] {
  if (page._type === 'landingPage')
    return page.hero && HOME_HERO_PATHS
      ? [{ path: 'hero', owner: page.hero, paths: HOME_HERO_PATHS }]
      : []
  return (page.blocks ?? []).flatMap((owner) => {
    const paths = BLOCK_PATHS.get(owner._type ?? '')
    return paths && owner._key ? [{ path: `blocks[_key=="${owner._key}"]`, owner, paths }] : []
  })
}

const isSet = (value: unknown) =>
  typeof value === 'string' ? value !== '' : Boolean((value as Image | null)?.asset?._ref)

/**
 * Making a variant the default: its values (only the fields it sets) become its owners' own, this
 * experiment's variant entries leave them (they show nothing once it ended), and the
 * experiment ends. Refused with a Portuguese reason when the page has an unpublished draft (the
 * published page would change under the editor's draft, and that draft, published later, would
 * undo the choice), the variant is the default already, or the page has no values for it. The
 * transaction itself requires the page's draft still absent and the page at the revision read.
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
  if (pageDraft) return { problem: PAGE_DRAFT_PROBLEM }
  const experimentId = publishedId(experiment._id)
  const set: Record<string, unknown> = {}
  const unset: string[] = []
  let found = false
  for (const { path, owner, paths } of variantOwners(page)) {
    const ours = (owner.experimentVariants ?? []).filter(
      (entry) => entry.experiment?._ref === experimentId,
    )
    const entry = ours.find((candidate) => candidate.variant === variant)
    found ||= Boolean(entry)
    for (const [field, target] of Object.entries(paths))
      if (entry && isSet(entry[field])) set[`${path}.${target}`] = entry[field]
    unset.push(...ours.map((candidate) => `${path}.experimentVariants[_key=="${candidate._key}"]`))
  }
  if (!found)
    return {
      problem: `A página não tem os textos da versão "${variant}": nada a copiar. Encerre o experimento.`,
    }

  return {
    mutations: [
      ...absent(draftId(page._id), page._type),
      { patch: { id: page._id, ifRevisionID: page._rev, set, unset } },
      ...endExperimentMutations(experiment, experimentDraft, now),
    ],
  }
}
