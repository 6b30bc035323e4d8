import { LeadForm } from '@/components/lead-form'
import { MobileMenu } from '@/components/mobile-menu'
import { PrivacyNotice } from '@/components/privacy-notice'
import { AnnouncementBar } from '@/components/announcement-bar'
import { SiteFooter } from '@/components/site-footer'
import { SiteHeader } from '@/components/site-header'
import { SkipLink } from '@/components/skip-link'
import { About } from '@/components/sections/about'
import { Benefits } from '@/components/sections/benefits'
import { Contact } from '@/components/sections/contact'
import { Hero } from '@/components/sections/hero'
import { HowItWorks } from '@/components/sections/how-it-works'
import { Technology } from '@/components/sections/technology'
import { getLandingPage, getRoiCalculator, getSiteSettings } from '@/lib/content'
import { CONTROL } from '@/lib/experiments/ids'
import { withVariant } from '@/lib/experiments/variants'
import { jsonLdScript, organizationJsonLd } from '@/lib/site-metadata'

/**
 * The home page, as the default (app/page.tsx) or as one variant of an experiment running on it
 * (app/variante): the same page, the hero's fields replaced by the variant's (lib/experiments).
 */
export async function HomePageView({
  experiment,
  variant = CONTROL,
}: {
  experiment?: string
  variant?: string
}) {
  const [settings, page, calculator] = await Promise.all([
    getSiteSettings(),
    getLandingPage(),
    getRoiCalculator(),
  ])
  const hero = page?.hero ? withVariant(page.hero, experiment, variant) : null
  return (
    <>
      <script
        type="application/ld+json"
        dangerouslySetInnerHTML={{ __html: jsonLdScript(organizationJsonLd(settings)) }}
      />
      <SkipLink />
      <AnnouncementBar />
      <SiteHeader settings={settings} mobileMenu={MobileMenu} />
      <main id="conteudo" tabIndex={-1} className="outline-none">
        <Hero hero={hero} />
        <About sobre={page?.sobre ?? null} />
        <HowItWorks comoFunciona={page?.comoFunciona ?? null} />
        <Technology tecnologia={page?.tecnologia ?? null} />
        <Benefits beneficios={page?.beneficios ?? null} calculator={calculator} />
        <Contact
          contato={page?.contato ?? null}
          contact={settings?.contact ?? null}
          form={
            <LeadForm
              title={page?.contato?.formTitle}
              notice={<PrivacyNotice brandName={settings?.brandName} />}
            />
          }
        />
      </main>
      <SiteFooter settings={settings} />
    </>
  )
}
