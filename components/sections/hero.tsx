import { ClaimFigure, presentClaims } from '@/components/claim-figure'
import { ContentImage } from '@/components/content-image'
import { Icon } from '@/components/icon'
import { ButtonLink } from '@/components/ui/button'
import { Container } from '@/components/ui/section'
import type { LandingPage } from '@/lib/content'

type Props = {
  hero:
    | (Omit<NonNullable<LandingPage['hero']>, 'visual' | 'experimentVariants'> & {
        visual: NonNullable<LandingPage['hero']>['visual'] | null
      })
    | null
  /** Where the buttons lead: the home page's sections, or a campaign page's own links. */
  primaryHref?: string
  secondaryHref?: string
}

export function Hero({ hero, primaryHref = '#contato', secondaryHref = '#como-funciona' }: Props) {
  const stats = presentClaims(hero?.stats)
  return (
    <section
      id="inicio"
      aria-labelledby={hero?.headline ? 'inicio-titulo' : undefined}
      // The glow is the section's own background, wide screens only: on a phone two radial
      // gradients the height of the hero were rastered before the first paint could be shown
      // (~20 ms on the emulated phone's trace), for a glow the small screen barely shows.
      className="relative overflow-hidden bg-navy-950 pt-header text-white lg:bg-[radial-gradient(ellipse_at_top_right,rgba(31,95,209,0.45),transparent_60%),radial-gradient(ellipse_at_bottom_left,rgba(251,191,36,0.12),transparent_55%)]"
    >
      {/*
        One image, placed after the text in the DOM: on a phone it comes below the figures, where
        it cannot compete with the headline for the first paint (and loads lazily); from lg up the
        grid puts it beside the headline, preloaded with high priority.
      */}
      <Container className="relative grid gap-y-12 py-16 sm:py-24 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)] lg:gap-x-12 lg:py-28 xl:grid-cols-[minmax(0,1fr)_minmax(0,30rem)]">
        <div className="max-w-3xl">
          {hero?.eyebrow ? (
            <p className="inline-flex items-center gap-2 rounded-full border border-signal-400/40 bg-signal-400/10 px-3 py-1 text-sm font-medium text-signal-300">
              {hero.eyebrow}
            </p>
          ) : null}
          {hero?.headline ? (
            <h1
              id="inicio-titulo"
              className="mt-5 text-4xl leading-tight font-extrabold tracking-tight text-balance sm:text-5xl xl:text-6xl"
            >
              {hero.headline}
            </h1>
          ) : null}
          {hero?.description ? (
            <p className="mt-6 max-w-2xl text-lg text-pretty text-slate-300 sm:text-xl">
              {hero.description}
            </p>
          ) : null}
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            {hero?.primaryCta ? (
              <ButtonLink href={primaryHref} variant="signal" size="lg">
                {hero.primaryCta}
                <Icon name="arrow-right" />
              </ButtonLink>
            ) : null}
            {hero?.secondaryCta ? (
              <ButtonLink href={secondaryHref} variant="outline" size="lg">
                {hero.secondaryCta}
              </ButtonLink>
            ) : null}
          </div>
        </div>
        {stats.length > 0 ? (
          <dl className="grid gap-6 border-t border-white/15 pt-8 sm:grid-cols-3 lg:col-start-1">
            {stats.map((claim) => (
              <ClaimFigure key={claim._id} claim={claim} tone="dark" />
            ))}
          </dl>
        ) : null}
        {hero?.visual ? (
          <div className="mx-auto w-full max-w-md lg:col-start-2 lg:row-start-1 lg:max-w-none lg:self-start">
            <ContentImage
              image={hero.visual}
              sizes="(min-width: 1280px) 480px, (min-width: 1024px) 416px, (min-width: 448px) 448px, 100vw"
              preloadMedia="(min-width: 1024px)"
              className="h-auto w-full rounded-[2rem] shadow-2xl shadow-black/40"
            />
          </div>
        ) : null}
      </Container>
    </section>
  )
}
