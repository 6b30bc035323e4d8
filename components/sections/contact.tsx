import type { ReactNode } from 'react'

import { Icon } from '@/components/icon'
import { ButtonLink } from '@/components/ui/button'
import { LAZY_PART, Section, type SectionIntro } from '@/components/ui/section'
import type { LandingPage, SiteSettings } from '@/lib/content'
import { cn } from '@/lib/utils'
import { whatsappChatUrl } from '@/lib/whatsapp'

type Props = {
  contato:
    | (NonNullable<SectionIntro> &
        Partial<
          Pick<
            NonNullable<LandingPage['contato']>,
            'detailsTitle' | 'offerTitle' | 'offers' | 'whatsappCta'
          >
        >)
    | null
  contact: SiteSettings['contact'] | null
  /** The demo-request form, rendered beside the contact details. */
  form?: ReactNode
  id?: string
}

export function Contact({ contato, contact, form, id = 'contato' }: Props) {
  const offers = (contato?.offers ?? []).filter(Boolean)
  const phoneHref = contact?.phone ? `tel:+55${contact.phone.replace(/\D/g, '')}` : null
  return (
    <Section id={id} intro={contato}>
      <div className="mt-12 grid gap-8 lg:grid-cols-5">
        <div className="lg:col-span-3">{form}</div>

        {/* Beside the form, a lazy part: the form's fields make Chrome lay out the section at load. */}
        <aside
          className={cn('space-y-6 lg:col-span-2', LAZY_PART)}
          aria-label="Outras formas de contato"
        >
          {contact ? (
            <div className="rounded-2xl bg-navy-950 p-6 text-white sm:p-8">
              {contato?.detailsTitle ? (
                <h3 className="text-xl font-semibold">{contato.detailsTitle}</h3>
              ) : null}
              <ul className="mt-5 space-y-4 text-slate-200">
                {contact.email ? (
                  <li className="flex gap-3">
                    <Icon name="mail" className="mt-0.5 size-5 shrink-0 text-signal-400" />
                    <a
                      href={`mailto:${contact.email}`}
                      className="break-all underline-offset-4 hover:underline"
                    >
                      {contact.email}
                    </a>
                  </li>
                ) : null}
                {contact.phone ? (
                  <li className="flex gap-3">
                    <Icon name="phone" className="mt-0.5 size-5 shrink-0 text-signal-400" />
                    <span>
                      <a
                        href={phoneHref ?? undefined}
                        className="underline-offset-4 hover:underline"
                      >
                        {contact.phone}
                      </a>
                      {contact.hours ? (
                        <span className="mt-0.5 flex items-center gap-1.5 text-sm text-slate-300">
                          <Icon name="clock" className="size-4" />
                          {contact.hours}
                        </span>
                      ) : null}
                    </span>
                  </li>
                ) : null}
                {contact.location ? (
                  <li className="flex gap-3">
                    <Icon name="map-pin" className="mt-0.5 size-5 shrink-0 text-signal-400" />
                    <span>
                      {contact.location}
                      {contact.coverage ? (
                        <span className="block text-sm text-slate-300">{contact.coverage}</span>
                      ) : null}
                    </span>
                  </li>
                ) : null}
              </ul>
              {contact.whatsappNumber && contato?.whatsappCta ? (
                <ButtonLink
                  href={whatsappChatUrl(contact.whatsappNumber, contact.whatsappGreeting)}
                  target="_blank"
                  rel="noopener noreferrer"
                  variant="whatsapp"
                  className="mt-6 w-full"
                >
                  <Icon name="message-circle" />
                  {contato.whatsappCta}
                  <span className="sr-only"> (abre em nova aba)</span>
                </ButtonLink>
              ) : null}
            </div>
          ) : null}

          {offers.length > 0 ? (
            <div className="rounded-2xl border border-slate-200 bg-slate-50 p-6 sm:p-8">
              {contato?.offerTitle ? (
                <h3 className="text-xl font-semibold text-navy-950">{contato.offerTitle}</h3>
              ) : null}
              <ul className="mt-4 space-y-3">
                {offers.map((offer) => (
                  <li key={offer} className="flex gap-3 text-slate-700">
                    <Icon name="check" className="mt-0.5 size-5 shrink-0 text-brand-700" />
                    {offer}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </aside>
      </div>
    </Section>
  )
}
