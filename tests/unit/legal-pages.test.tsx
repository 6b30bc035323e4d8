import { toPlainText } from '@portabletext/react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'

import { LegalText } from '@/components/legal-text'
import { AGGREGATE_RETENTION_MONTHS, SALT_MAX_AGE_HOURS } from '@/lib/analytics/retention'
import { DESTINATIONS } from '@/lib/leads/delivery/destinations'
import { LEAD_RETENTION_MONTHS } from '@/lib/leads/delivery/queue.mjs'
import { RETRY_FOR_MS } from '@/lib/leads/delivery/retry'
import { cnpjProblem } from '@/lib/cnpj'
import { queryDataset } from '@/lib/content/bundled'
import { CONTENT_TAGS, tagForType } from '@/lib/content/tags'
import { formatLegalDate } from '@/lib/legal-date'
import { LEGAL_PAGE_QUERY, LEGAL_PAGE_SLUGS_QUERY } from '@/sanity/lib/queries'
import type { LEGAL_PAGE_QUERY_RESULT, LEGAL_PAGE_SLUGS_QUERY_RESULT } from '@/sanity/types'

import { bundledDocuments, queryPage } from './content-support'

const documents = bundledDocuments()
const legalPage = async (slug: string) => {
  const page = await queryDataset<LEGAL_PAGE_QUERY_RESULT>(LEGAL_PAGE_QUERY, { slug }, documents)
  if (!page) throw new Error(`No bundled legal page "${slug}".`)
  return { ...page, text: toPlainText(page.body ?? []) }
}

describe('the bundled legal pages', () => {
  it('are the four pages the footer links to, each dated', async () => {
    const slugs = await queryDataset<LEGAL_PAGE_SLUGS_QUERY_RESULT>(
      LEGAL_PAGE_SLUGS_QUERY,
      {},
      documents,
    )
    expect(slugs.map((page) => page.slug)).toEqual([
      'acessibilidade',
      'lgpd',
      'privacidade',
      'termos',
    ])
    expect(slugs.every((page) => /^\d{4}-\d{2}-\d{2}$/.test(page._updatedAt))).toBe(true)
    const { settings } = await queryPage(documents)
    expect(settings?.footer?.legalLinks?.map((link) => link.href).sort()).toEqual(
      slugs.map((page) => `/${page.slug}`).sort(),
    )
  })

  it('the privacy policy says what the form collects, why, where it goes, for how long, and no cookies', async () => {
    const { text } = await legalPage('privacidade')
    // What lib/leads/compose.ts stores and lib/attribution.ts sends along.
    for (const collected of [
      'nome',
      'e-mail',
      'empresa',
      'telefone',
      'tamanho da frota',
      'mensagem',
    ])
      expect(text.toLowerCase()).toContain(collected)
    for (const origin of [
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'referenciador',
      'sessionStorage',
    ])
      expect(text).toContain(origin)
    expect(text).toMatch(/art\. 7º, V\b/)
    expect(text).toContain('dados_cliente')
    expect(text).toContain('chat_messages')
    expect(text).toMatch(/WhatsApp/)
    expect(text).toMatch(/12 meses/)
    expect(text).toMatch(/não recebe nenhum cookie/)
    expect(text).toMatch(/modo rascunho/)
  })

  it('the privacy policy names who receives a lead and why, and keeps every copy to the code', async () => {
    const { text } = await legalPage('privacidade')
    // Every destination lib/leads/delivery/destinations.ts declares (LGPD art. 9: with whom).
    for (const { receiver } of Object.values(DESTINATIONS)) expect(text).toContain(receiver)
    // rdstation.ts sends the opt-in as a tag only, never as e-mail consent.
    expect(text).toContain('nunca como consentimento para receber e-mails de marketing')
    // queue.mjs: copies emptied when delivered or given up (retry.ts), rows purged at retention.
    expect(text).toContain(`se não puder ser entregue, em até ${RETRY_FOR_MS / 3_600_000} horas`)
    expect(text).toContain(`sem os seus dados, é apagado em ${LEAD_RETENTION_MONTHS} meses`)
    expect(text).toContain(`até ${LEAD_RETENTION_MONTHS} meses depois do último contato`)
    expect(text).toContain('eliminar um pedido elimina também os seus envios')
    // compose.ts keeps only the referrer's host in the texts and the column.
    expect(text).toContain('só o domínio do referenciador')
  })

  it('the privacy policy says what the visit counting keeps, on which basis, and for as long as the code keeps it', async () => {
    const { text } = await legalPage('privacidade')
    expect(text).toContain('Contagem de visitas, sem cookies')
    // What the beacon sends and the server counts (lib/analytics, docs/analytics.md).
    expect(text).toContain('o caminho da página visitada')
    // The web vitals the beacon adds to a hard load's first reading (lib/analytics/vitals.mjs).
    for (const metric of ['(LCP)', '(INP)', '(CLS)']) expect(text).toContain(metric)
    expect(text).toContain('visitantes únicos por dia')
    for (const part of ['sal diário', 'endereço IP', 'user agent', 'HMAC-SHA256'])
      expect(text).toContain(part)
    expect(text).toContain('não são gravados nem registrados')
    expect(text).toMatch(/só o domínio/)
    expect(text).toMatch(/Contar as visitas[^]*legítimo interesse \(LGPD, art\. 7º, IX/)
    expect(text).toContain('não grava cookie, nada no localStorage')
    expect(text).toContain('JavaScript desligado também não é contada')
    // The figures lib/analytics/retention.ts gives the code.
    expect(text).toContain(
      `Sal diário da contagem de visitas: apagado em até ${SALT_MAX_AGE_HOURS} horas`,
    )
    expect(text).toContain(`Totais diários de visitas: ${AGGREGATE_RETENTION_MONTHS} meses`)
    // No longer true once the site counts visits itself.
    expect(text).not.toMatch(/não usamos ferramentas de análise,/)
    expect(text).not.toMatch(/só sai do seu navegador junto com o formulário/)
  })

  it('the LGPD page lists the rights of art. 18 and presents the encarregado', async () => {
    const page = await legalPage('lgpd')
    expect(page.text).toMatch(/art\. 18/)
    for (const right of [
      'confirmação',
      'acesso',
      'correção',
      'portabilidade',
      'eliminação',
      'oposição',
    ])
      expect(page.text).toContain(right)
    expect(page.text).toMatch(/Resolução CD\/ANPD nº 18\/2024/)
    expect(page.showDataProtectionContacts).toBe(true)
    const { settings } = await queryPage(documents)
    // No name and no CNPJ in the bundled settings: only the company has them (the Studio warns).
    expect(settings?.dataProtectionOfficer?.email).toContain('@')
    expect(settings?.dataProtectionOfficer?.name ?? null).toBeNull()
    expect(settings?.controller?.cnpj ?? null).toBeNull()
  })

  it('the accessibility statement names the target, what was tested and how to report a barrier', async () => {
    const { text } = await legalPage('acessibilidade')
    expect(text).toMatch(/WCAG\) 2\.2/)
    expect(text).toMatch(/ABNT NBR 17225/)
    expect(text).toMatch(/conformidade regular/)
    expect(text).toMatch(/axe-core/)
    expect(text).toMatch(/Como relatar uma barreira/)
  })
})

describe('LegalText', () => {
  it('renders headings, lists, bold and links as plain HTML', async () => {
    const { body } = await legalPage('privacidade')
    const html = renderToStaticMarkup(<LegalText body={body} />)
    expect(html).toMatch(/<h2[^>]*>Quem somos/)
    expect(html).toMatch(/<ul[^>]*><li[^>]*>/)
    expect(html).toMatch(/<strong[^>]*>Vigia Tecnologia para Frotas Ltda\.<\/strong>/)
    expect(html).toMatch(/<a href="\/lgpd"[^>]*>LGPD: seus direitos<\/a>/)
    expect(html).not.toMatch(/<h1/)
  })
})

describe('publishing a legal page', () => {
  it('has a cache tag (what the webhook warms: tests/unit/routed-types.test.ts)', () => {
    expect(tagForType('legalPage')).toBe(CONTENT_TAGS.legalPage)
  })

  it('writes the date as Brazilians do, whatever the server time zone', () => {
    expect(formatLegalDate('2026-11-22')).toBe('22 de novembro de 2026')
    expect(formatLegalDate('2026-01-01')).toBe('1 de janeiro de 2026')
  })
})

describe('cnpjProblem', () => {
  it('accepts valid numeric and alphanumeric CNPJs', () => {
    expect(cnpjProblem('11.222.333/0001-81')).toBeNull()
    // The Receita Federal's own example of the alphanumeric CNPJ (IN RFB 2.229/2024).
    expect(cnpjProblem('12.ABC.345/01DE-35')).toBeNull()
  })

  it('refuses wrong check digits, a bad format and repeated digits, in Portuguese', () => {
    expect(cnpjProblem('11.222.333/0001-82')).toMatch(/dígitos verificadores/)
    expect(cnpjProblem('11222333000181')).toMatch(/formato 00\.000\.000\/0000-00/)
    expect(cnpjProblem('11.222.333/0001-8')).toMatch(/formato/)
    expect(cnpjProblem('00.000.000/0000-00')).toBe('CNPJ inválido.')
  })
})
