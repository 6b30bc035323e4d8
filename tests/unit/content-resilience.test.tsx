// @vitest-environment jsdom
// jsdom only to parse the server-rendered HTML; the components themselves render with react-dom/server.
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'

import { About } from '@/components/sections/about'
import { Benefits } from '@/components/sections/benefits'
import { Contact } from '@/components/sections/contact'
import { Hero } from '@/components/sections/hero'
import { HowItWorks } from '@/components/sections/how-it-works'
import { Technology } from '@/components/sections/technology'
import { SiteFooter } from '@/components/site-footer'
import { MobileMenu } from '@/components/mobile-menu'
import { SiteHeader } from '@/components/site-header'

import { bundledDocuments, documentById, queryPage, type Doc } from './content-support'

const SECTION_IDS = ['sobre', 'como-funciona', 'tecnologia', 'beneficios', 'contato']

/**
 * The landing page's sections in app/page.tsx's order, fed by the real queries over `documents`
 * the way lib/content feeds them (a missing document comes back as null). Rendered to HTML and
 * parsed, so assertions read the markup a visitor would get.
 */
async function renderLanding(documents: Doc[]) {
  const { settings, page } = await queryPage(documents)
  const html = renderToString(
    <>
      <SiteHeader settings={settings} mobileMenu={MobileMenu} />
      <main>
        <Hero hero={page?.hero ?? null} />
        <About sobre={page?.sobre ?? null} />
        <HowItWorks comoFunciona={page?.comoFunciona ?? null} />
        <Technology tecnologia={page?.tecnologia ?? null} />
        <Benefits beneficios={page?.beneficios ?? null} />
        <Contact contato={page?.contato ?? null} contact={settings?.contact ?? null} />
      </main>
      <SiteFooter settings={settings} />
    </>,
  )
  const document = new DOMParser().parseFromString(html, 'text/html')
  const text = (selector: string) => document.querySelector(selector)?.textContent ?? ''
  const texts = (selector: string) =>
    [...document.querySelectorAll(selector)].map((node) => node.textContent ?? '')
  return { document, text, texts, html }
}

type Section = Record<string, unknown>
type LandingPageDoc = Doc &
  Record<'hero' | 'sobre' | 'comoFunciona' | 'tecnologia' | 'beneficios' | 'contato', Section>

function without(documents: Doc[], ...ids: string[]) {
  return documents.filter((doc) => !ids.includes(doc._id))
}

describe('the landing page renders whatever content there is', () => {
  it('renders the complete bundled content (the baseline the trimmed cases are compared to)', async () => {
    const { document, text, texts } = await renderLanding(bundledDocuments())
    for (const id of SECTION_IDS) expect(document.getElementById(id), `#${id}`).not.toBeNull()
    expect(document.querySelectorAll('h1')).toHaveLength(1)
    expect(text('header')).toContain('Fleet Safety Technology')
    expect(
      texts('#inicio dd').filter((value) => ['90%', '24/7', '100%'].includes(value)),
    ).toHaveLength(3)
    expect(document.querySelectorAll('#sobre article')).toHaveLength(3)
    expect(document.querySelectorAll('#como-funciona ol > li')).toHaveLength(4)
    expect(document.querySelectorAll('#tecnologia article')).toHaveLength(6)
    expect(document.querySelectorAll('#beneficios article')).toHaveLength(6)
    expect(text('#beneficios')).toContain('Mercados Atendidos')
    expect(document.querySelector('#contato a[href^="https://wa.me/"]')).not.toBeNull()
    expect(document.querySelectorAll('footer nav a')).toHaveLength(5)
  })

  it('renders with an empty dataset: every section anchor is still there, nothing throws', async () => {
    const { document } = await renderLanding([])
    for (const id of SECTION_IDS) expect(document.getElementById(id), `#${id}`).not.toBeNull()
    expect(
      document.querySelectorAll('h2, h3, article, dd, a[href^="https://wa.me/"]'),
    ).toHaveLength(0)
    expect(document.querySelector('footer')).not.toBeNull()
  })

  it('renders without site settings: no brand, navigation or contact details, the rest intact', async () => {
    const documents = without(bundledDocuments(), 'siteSettings')
    const { document, text, texts } = await renderLanding(documents)
    expect(document.querySelectorAll('header nav a, footer nav a')).toHaveLength(0)
    expect(text('header')).not.toContain('Fleet Safety Technology')
    expect(document.querySelector('header button[aria-controls]')).toBeNull()
    expect(document.querySelector('#contato a[href^="https://wa.me/"]')).toBeNull()
    expect(document.querySelector('#contato a[href^="mailto:"]')).toBeNull()

    const page = documentById<LandingPageDoc>(documents, 'landingPage')
    expect(text('h1')).toBe(page.hero.headline)
    expect(texts('#como-funciona h3').map((title) => title.replace(/^Etapa \d: /, ''))).toEqual([
      'Detecção',
      'Análise',
      'Ação',
      'Resolução',
    ])
    // What the visitor gets does not depend on site settings.
    expect(document.querySelectorAll('#contato li')).toHaveLength(4)
    expect(text('#contato h2')).toBe(page.contato.heading)
  })

  it('renders a landing page whose sections were removed: the others keep their text', async () => {
    const documents = bundledDocuments()
    const page = documentById<LandingPageDoc>(documents, 'landingPage')
    const { heading: sobreHeading } = page.sobre as { heading: string }
    const { heading: tecnologiaHeading } = page.tecnologia as { heading: string }
    delete (page as Partial<LandingPageDoc>).sobre
    delete (page as Partial<LandingPageDoc>).tecnologia
    delete (page as Partial<LandingPageDoc>).hero

    const { document, text, html } = await renderLanding(documents)
    for (const id of SECTION_IDS) expect(document.getElementById(id), `#${id}`).not.toBeNull()
    expect(html).not.toContain(sobreHeading)
    expect(html).not.toContain(tecnologiaHeading)
    expect(
      document.querySelectorAll('#sobre article, #tecnologia article, #tecnologia dd'),
    ).toHaveLength(0)
    // A hero without content shows no stray calls to action or figures.
    expect(document.querySelectorAll('#inicio a, #inicio dd')).toHaveLength(0)

    expect(text('#como-funciona h2')).toBe(page.comoFunciona.heading)
    expect(document.querySelectorAll('#beneficios article')).toHaveLength(6)
    expect(text('#contato h2')).toBe(page.contato.heading)
    expect(text('header')).toContain('Fleet Safety Technology')
    expect(document.querySelectorAll('header nav[aria-label="Principal"] a')).toHaveLength(5)
  })

  it('drops figures whose claim reference is broken and keeps everything else', async () => {
    // claim-lgpd is referenced by a hero stat and a benefit card; claim-accuracy by the spec panel.
    const documents = without(bundledDocuments(), 'claim-lgpd', 'claim-accuracy')
    const { document, texts, html } = await renderLanding(documents)

    expect(texts('#inicio dd').filter((value) => ['90%', '24/7', '100%'].includes(value))).toEqual([
      '90%',
      '24/7',
    ])
    expect(html).not.toContain('98,5%')
    expect(texts('#tecnologia dd')).toContain('99,9%')
    expect(document.querySelectorAll('#beneficios article')).toHaveLength(6)
    const lgpdCard = [...document.querySelectorAll('#beneficios article')].find((card) =>
      card.querySelector('h3')?.textContent?.includes('LGPD'),
    )
    expect(lgpdCard, 'the LGPD benefit card').toBeDefined()
    expect(lgpdCard?.textContent).not.toContain('100%')
    expect(lgpdCard?.querySelector('p')?.textContent).toMatch(/\S/)
  })

  it('skips half-filled items: cards, markets, navigation entries and links without their key fields', async () => {
    const documents = bundledDocuments()
    const page = documentById<LandingPageDoc>(documents, 'landingPage')
    const settings = documentById<Section>(documents, 'siteSettings')
    const sobrePoints = page.sobre.points as Section[]
    sobrePoints[0] = { _key: 'empty', _type: 'featureCard', icon: 'not-an-icon' }
    sobrePoints[1] = { ...sobrePoints[1], icon: 'not-an-icon' }
    const markets = (page.beneficios as { markets: Section[] }).markets
    delete markets[0]!.name
    const navigation = settings.navigation as Section[]
    delete navigation[0]!.anchor
    const contact = settings.contact as Section
    delete contact.whatsappNumber
    delete contact.phone
    const footer = settings.footer as { legalLinks: Section[] }
    delete footer.legalLinks[0]!.href

    const { document, text, texts } = await renderLanding(documents)
    // The empty card is dropped; a card with an unknown icon still shows, with a fallback icon.
    expect(document.querySelectorAll('#sobre article')).toHaveLength(2)
    expect(document.querySelectorAll('#sobre article .icon')).toHaveLength(2)
    expect(document.querySelectorAll('#beneficios ul li')).toHaveLength(2)
    expect(texts('header nav[aria-label="Principal"] a')).toEqual([
      'Como Funciona',
      'Tecnologia',
      'Benefícios',
      'Contato',
    ])
    expect(texts('footer nav a')).toEqual(['Como Funciona', 'Tecnologia', 'Benefícios', 'Contato'])
    expect(document.querySelector('#contato a[href^="https://wa.me/"]')).toBeNull()
    expect(document.querySelector('#contato a[href^="tel:"]')).toBeNull()
    expect(document.querySelector('#contato a[href^="mailto:"]')).not.toBeNull()
    expect(text('footer')).not.toMatch(/privacidade/i)
    expect(text('footer')).toMatch(/termos de uso/i)
  })
})
