// A block (or the home page's hero) as a variant shows it: the variant's `values`, which the
// owner's GROQ fragment projects in the owner's own shape (sanity/schema-types/variants.ts), over
// its fields, which stay the defaults for an empty value and for the control. Generic and pure, so
// the served page, the preview, the review link and the tests put a variant together the same way.

import { CONTROL, parseVariantId } from './ids'

/** `over` on `base`, leaf by leaf; an empty value (null, '') keeps the default. */
function merge(base: unknown, over: unknown): unknown {
  if (over == null || over === '') return base
  if (typeof over !== 'object' || Array.isArray(over) || !base || typeof base !== 'object')
    return over
  const merged: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(over)) merged[key] = merge(merged[key], value)
  return merged
}

/**
 * The owner with this variant's values in place of the defaults (the control, or a variant without
 * an entry, is the owner as it is); the variants list itself is dropped, never rendered.
 */
export function withVariant<T extends object>(
  owner: T,
  experiment: string | undefined,
  variant: string,
): T {
  type Entry = { experiment?: string | null; variant?: string | null; values?: unknown }
  const { experimentVariants: entries, ...rest } = owner as { experimentVariants?: Entry[] | null }
  const entry =
    experiment && variant !== CONTROL
      ? (entries ?? []).find((item) => item.experiment === experiment && item.variant === variant)
      : undefined
  return merge(rest, entry?.values) as T
}

/** A campaign page's blocks shown as this variant (the default: the control). */
export function blocksWithVariant<B extends object>(
  blocks: readonly B[] | null | undefined,
  experiment: string | undefined,
  variant: string = CONTROL,
): B[] {
  return (blocks ?? []).map((block) => withVariant(block, experiment, variant))
}

/**
 * The query parameter by which the Studio's preview and a review link show one variant
 * (`?variante=<experiment>/<variant>`); pages served to visitors ignore it (proxy.ts assigns).
 */
export const PREVIEW_VARIANT_PARAM = 'variante'

/** The variant a preview or review link asks for, or the default when it names none. */
export function previewVariant(value: string | string[] | undefined): {
  experiment?: string
  variant: string
} {
  const parsed = typeof value === 'string' ? parseVariantId(value) : undefined
  return parsed ?? { variant: CONTROL }
}
