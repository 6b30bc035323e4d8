import type { ComponentType } from 'react'

import { ContentImage } from '@/components/content-image'
import { Icon } from '@/components/icon'
import { ButtonLink } from '@/components/ui/button'
import { Container } from '@/components/ui/section'
import type { SiteSettings } from '@/lib/content'

import type { MobileMenu } from './mobile-menu'

type Props = {
  settings: SiteSettings | null
  /** Off on the other pages (the legal ones): links then lead to the home page's sections. */
  onHomePage?: boolean
  /**
   * The small-screen menu, the header's only client code. Passed in by the page rather than
   * imported here, because importing a client component puts its chunk on every page that uses
   * the header: the legal pages leave it out, ship no JavaScript of their own, and show the call
   * to action at every width instead.
   */
  mobileMenu?: ComponentType<Parameters<typeof MobileMenu>[0]>
  /** Where the call to action leads; by default the home page's form. */
  ctaHref?: string
}

export function SiteHeader({ settings, onHomePage = true, mobileMenu: Menu, ctaHref }: Props) {
  const home = onHomePage ? '' : '/'
  const navigation = (settings?.navigation ?? []).flatMap((item) =>
    item.label && item.anchor
      ? [{ key: item._key, label: item.label, href: `${home}#${item.anchor}` }]
      : [],
  )
  const cta = settings?.headerCta

  return (
    // Opaque on phones: a backdrop blur under a fixed header is redrawn on every frame and held
    // back the first paint of the page on the emulated phone; wide screens keep the frosted look.
    // Below the announcement bar when there is one (0 otherwise; app/globals.css).
    <header className="fixed inset-x-0 top-(--announcement-height) z-40 border-b border-slate-200 bg-white lg:bg-white/95 lg:backdrop-blur lg:supports-[backdrop-filter]:bg-white/85">
      <Container className="flex h-header items-center justify-between gap-4">
        <a
          href={onHomePage ? '#inicio' : '/'}
          className="flex min-w-0 items-center gap-2.5 rounded-md"
        >
          {settings?.logo?.asset ? (
            // The brand name is written beside it, so the logo is decorative here.
            <ContentImage
              image={{ ...settings.logo, alt: '' }}
              sizes="40px"
              aspectRatio={1}
              className="size-10 shrink-0 rounded-lg object-cover"
            />
          ) : (
            <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-navy-950 text-signal-400">
              <Icon name="shield-check" className="size-6" />
            </span>
          )}
          <span className="flex min-w-0 flex-col leading-tight">
            <span className="truncate text-lg font-bold text-navy-950">{settings?.brandName}</span>
            {settings?.tagline ? (
              <span className="truncate text-xs font-medium text-slate-600">
                {settings.tagline}
              </span>
            ) : null}
          </span>
        </a>

        {navigation.length > 0 ? (
          <nav aria-label="Principal" className="hidden md:block">
            <ul className="flex items-center gap-1 lg:gap-2">
              {navigation.map((item) => (
                <li key={item.key}>
                  <a
                    href={item.href}
                    className="rounded-md px-2.5 py-2 text-sm font-medium text-slate-700 transition-colors hover:text-brand-700 lg:px-3"
                  >
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}

        <div className="flex items-center gap-2">
          {cta ? (
            <div className={Menu ? 'hidden md:block' : undefined}>
              <ButtonLink href={ctaHref ?? `${home}#contato`} size="sm">
                {cta}
              </ButtonLink>
            </div>
          ) : null}
          {Menu && (navigation.length > 0 || cta) ? (
            <Menu items={navigation} cta={cta ?? null} />
          ) : null}
        </div>
      </Container>
    </header>
  )
}
