// A hero as a variant shows it: the variant's values (sanity/schema-types/hero-variants.ts) over
// the hero's own fields, which stay the defaults for an empty value and for the control. Pure, so
// the page, the review link and the tests put a variant together the same way.

import { CONTROL } from './ids'
import { parseVariantId } from './ids'

type Image = { asset?: unknown }

type VariantValues<Visual extends Image> = {
  experiment?: string | null
  variant?: string | null
  headline?: string | null
  description?: string | null
  ctaLabel?: string | null
  visual?: Visual | null
}

type HeroLike<Visual extends Image> = {
  headline?: string | null
  description?: string | null
  /** A string on the home page, a link ({label, href}) on a campaign page's hero block. */
  primaryCta?: string | { label?: string | null } | null
  visual?: Visual | null
  experimentVariants?: VariantValues<Visual>[] | null
}

/** The entry of this experiment's variant on the hero, if the editor wrote one. */
export function heroVariantValues<Visual extends Image>(
  hero: HeroLike<Visual> | null | undefined,
  experiment: string,
  variant: string,
): VariantValues<Visual> | undefined {
  if (variant === CONTROL) return undefined
  return (hero?.experimentVariants ?? []).find(
    (entry) => entry.experiment === experiment && entry.variant === variant,
  )
}

/**
 * The hero with this variant's values in place of the defaults (the control, or a variant without
 * an entry, is the hero as it is); the variants list itself is dropped, never rendered.
 */
export function withHeroVariant<Visual extends Image, H extends HeroLike<Visual>>(
  hero: H,
  experiment: string | undefined,
  variant: string,
): H {
  const { experimentVariants: _dropped, ...rest } = hero
  void _dropped
  const values = experiment ? heroVariantValues<Visual>(hero, experiment, variant) : undefined
  if (!values) return rest as H
  const cta = values.ctaLabel
    ? typeof hero.primaryCta === 'string' || hero.primaryCta == null
      ? (values.ctaLabel as H['primaryCta'])
      : ({ ...hero.primaryCta, label: values.ctaLabel } as H['primaryCta'])
    : hero.primaryCta
  return {
    ...rest,
    headline: values.headline || hero.headline,
    description: values.description || hero.description,
    primaryCta: cta,
    visual: values.visual?.asset ? values.visual : hero.visual,
  } as H
}

/** A campaign page with its hero block shown as this variant (the default: the control). */
export function blocksWithHeroVariant<B extends { _type: string }>(
  blocks: readonly B[] | null | undefined,
  experiment: string | undefined,
  variant: string = CONTROL,
): B[] {
  return (blocks ?? []).map((block) =>
    block._type === 'heroBlock'
      ? (withHeroVariant(block as B & HeroLike<Image>, experiment, variant) as B)
      : block,
  )
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
