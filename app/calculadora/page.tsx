import type { Metadata } from 'next'
import { notFound } from 'next/navigation'

import { AnnouncementBar } from '@/components/announcement-bar'
import { Icon } from '@/components/icon'
import { LeadForm } from '@/components/lead-form'
import { PrivacyNotice } from '@/components/privacy-notice'
import { RoiCalculatorPanel } from '@/components/roi-calculator-panel'
import { Contact } from '@/components/sections/contact'
import { SiteFooter } from '@/components/site-footer'
import { SiteHeader } from '@/components/site-header'
import { SkipLink } from '@/components/skip-link'
import { Container } from '@/components/ui/section'
import { getLandingPage, getRoiCalculator, getSiteSettings } from '@/lib/content'
import { fleetBand } from '@/lib/roi/calculator'
import { assumptionsFrom } from '@/lib/roi/content'
import { calculatorValuesFrom, encodeHandoff, parseCalculator } from '@/lib/roi/input'

// The savings calculator's answer without JavaScript: its form (home page's ROI block, campaign
// pages' calculator block) is a GET to here, so the estimate comes from the server, with the demo
// form below it, its fleet band chosen and the inputs carried along ("Receber a análise completa"
// lands on #contato). Rendered per request from the query string; the home page stays static.
// Not indexed: every query string is a page of its own.
export const metadata: Metadata = {
  title: 'Calculadora de economia | Vigia',
  description: 'Estimativa da economia com a Vigia para a sua frota.',
  robots: { index: false, follow: true },
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> }

export default async function CalculatorRoute({ searchParams }: Props) {
  const query = await searchParams
  const params = new URLSearchParams()
  for (const name of ['frota', 'sinistros', 'custo']) {
    const value = query[name]
    const first = Array.isArray(value) ? value[0] : value
    if (first !== undefined) params.set(name, first)
  }
  const [settings, page, calculator] = await Promise.all([
    getSiteSettings(),
    getLandingPage(),
    getRoiCalculator(),
  ])
  if (!calculator || !assumptionsFrom(calculator)) notFound()

  // Opened without a query (a link, a bookmark): the reference fleet, as on the home page.
  const submitted = params.has('frota')
  const values = submitted
    ? calculatorValuesFrom(params)
    : { frota: String(calculator.referenceFleet ?? 50), sinistros: '', custo: '' }
  const parsed = parseCalculator(values)
  const carried = submitted && parsed.ok ? parsed.inputs : null

  return (
    <>
      <SkipLink />
      <AnnouncementBar />
      <SiteHeader settings={settings} onHomePage={false} ctaHref="#contato" />
      <main id="conteudo" tabIndex={-1} className="pt-header outline-none">
        <section
          id="calculadora"
          aria-labelledby="calculadora-titulo"
          className="bg-slate-50 py-10 sm:py-16"
        >
          <Container className="max-w-4xl">
            <a
              href="/#beneficios"
              className="inline-flex min-h-11 items-center gap-2 rounded-md text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
            >
              <Icon name="arrow-left" className="size-4" />
              Voltar para o início
            </a>
            <h1
              id="calculadora-titulo"
              className="mt-4 text-3xl font-extrabold tracking-tight text-balance text-navy-950 sm:text-4xl"
            >
              {calculator.title ?? 'Calculadora de economia'}
            </h1>
            <RoiCalculatorPanel
              calculator={calculator}
              values={values}
              errors={parsed.ok ? undefined : parsed.errors}
              headingLevel={null}
              className="mt-6 border border-slate-200"
            />
          </Container>
        </section>
        <Contact
          contato={page?.contato ?? null}
          contact={settings?.contact ?? null}
          form={
            <LeadForm
              title={page?.contato?.formTitle}
              notice={<PrivacyNotice brandName={settings?.brandName} />}
              {...(carried
                ? { fleetSize: fleetBand(carried.fleet), calculator: encodeHandoff(carried) }
                : {})}
            />
          }
        />
      </main>
      <SiteFooter settings={settings} onHomePage={false} />
    </>
  )
}
