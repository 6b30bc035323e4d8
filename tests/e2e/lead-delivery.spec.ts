import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import type { Page } from '@playwright/test'

import { copyBuild, startInstance, startPostgrestDouble } from '../../scripts/lib/front-stack.cjs'
import { openPostgres } from '../../lib/leads/postgres.mjs'
import { hasPostgres } from '../support/has-postgres'
import { BUILDS, portFor } from '../../scripts/e2e-builds.cjs'
import {
  decodeHeader,
  parseMessage,
  startRdStationDouble,
  startSmtpDouble,
  startWebhookReceiver,
  TEST_CA_FILE,
} from '../support/lead-receivers.mjs'
import { OPERATOR_HEADERS, OPERATOR_SECRET } from './servers'
import {
  VALID,
  expect,
  expectThankYou,
  fillDemoForm,
  openDemoForm,
  submitButton,
  test,
  waitLikeAPerson,
} from './demo-fixtures'

/*
 * Issue 46: each lead reaches an e-mail inbox (a real SMTP server), a webhook receiver that
 * verifies the Standard Webhooks signature, and RD Station (a double that answers the first
 * conversion 429 with Retry-After), once each, through an outage and a restart. A copy of the
 * site build on one `next start` of its own, with its own embedded lead store. Runs in the
 * Playwright project "lead-delivery", in order.
 */

test.describe.configure({ mode: 'serial' })

const PORTS = {
  site: portFor(100).port,
  smtp: portFor(101).port,
  webhook: portFor(102).port,
  rd: portFor(103).port,
  postgrest: portFor(104).port,
  sender: portFor(106).port,
  second: portFor(107).port,
}
const SECRET = `whsec_${Buffer.from('lead-delivery-e2e-secret-0123456').toString('base64')}`
const RD_KEY = 'rd-public-key-e2e'
const SALES = 'vendas@vigia.example'

type Mail = { from: string; to: string[]; raw: string }
type Hook = { id: string; verified: boolean; body: { data: Record<string, unknown> } }
type Conversion = { at: number; status: number; body: { payload: Record<string, unknown> } }
type Stoppable = { stop: () => Promise<void> }

/** What every instance that sends needs: the three receivers, and trust in the relay's test CA. */
const DELIVERY_ENV = () => ({
  LEAD_NOTIFY_TO: SALES,
  SMTP_URL: smtpUrl,
  LEAD_NOTIFY_FROM: 'Site Vigia <site@vigia.example>',
  LEAD_WEBHOOK_URL: `http://127.0.0.1:${PORTS.webhook}/hooks/lead`,
  LEAD_WEBHOOK_SECRET: SECRET,
  RDSTATION_API_KEY: RD_KEY,
  RDSTATION_API_URL: `http://127.0.0.1:${PORTS.rd}`,
  NODE_EXTRA_CA_CERTS: TEST_CA_FILE,
})

let smtpUrl = ''
const mails: Mail[] = []
const hooks: Hook[] = []
const conversions: Conversion[] = []
let receivers: Stoppable[] = []
let build: { distDir: string; remove: () => void }
let dataDir: string
let site: { url: string; stop: () => Promise<void>; log: () => string }

async function startReceivers(throttleOnce?: number) {
  const smtp = await startSmtpDouble({ port: PORTS.smtp, messages: mails })
  smtpUrl = smtp.url
  receivers = [
    smtp,
    await startWebhookReceiver({ port: PORTS.webhook, secret: SECRET, received: hooks }),
    await startRdStationDouble({
      port: PORTS.rd,
      apiKey: RD_KEY,
      requests: conversions,
      ...(throttleOnce ? { throttleOnce } : {}),
    }),
  ]
}

async function stopReceivers() {
  await Promise.all(receivers.map((one) => one.stop()))
  receivers = []
}

function startSite() {
  return startInstance({
    distDir: build.distDir,
    port: PORTS.site,
    env: {
      ...BUILDS.site.env,
      LEADS_DATA_DIR: dataDir,
      ...DELIVERY_ENV(),
      // The operator's way to the health check's details (docs/deploying.md, "Health check").
      INTERNAL_API_SECRET: OPERATOR_SECRET,
    },
    logFile: path.join('test-results', 'lead-delivery-instance.log'),
  })
}

test.beforeAll(async () => {
  test.setTimeout(120_000)
  build = copyBuild(BUILDS.site.distDir, 'delivery')
  dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-delivery-')), 'leads')
  fs.mkdirSync('test-results', { recursive: true })
  await startReceivers(2)
  site = await startSite()
})

test.afterAll(async () => {
  await Promise.all([site?.stop(), stopReceivers()])
  build?.remove()
})

test.use({ baseURL: `http://127.0.0.1:${PORTS.site}` })

/** Sends the form as a visitor would, with the opt-in ticked or not (on `origin`, else the site). */
async function sendLead(page: Page, company: string, optIn: boolean, origin = '') {
  const openedAt = await openDemoForm(page, `${origin}/`)
  await fillDemoForm(page, { ...VALID, company })
  const box = page.getByRole('checkbox', { name: /Aceito ser contatado pelo WhatsApp/ })
  await expect(box).not.toBeChecked()
  if (optIn) await box.check()
  await waitLikeAPerson(page, openedAt)
  await submitButton(page).click()
  await expectThankYou(page)
}

const mailsFor = (company: string) =>
  mails
    .map((mail) => parseMessage(mail.raw))
    .filter((mail) => mail.parts['text/plain']?.includes(`Empresa: ${company}\n`))
const hooksFor = (company: string) => hooks.filter((hook) => hook.body.data.company === company)
const conversionsFor = (company: string) =>
  conversions.filter((one) => one.body?.payload.company_name === company)

/** Waits for each destination to have had the lead, then a little longer: still once each. */
async function expectDeliveredOnce(company: string, timeout: number) {
  await expect
    .poll(
      () => [
        mailsFor(company).length,
        hooksFor(company).length,
        conversionsFor(company).filter((one) => one.status === 200).length,
      ],
      { timeout, intervals: [250] },
    )
    .toEqual([1, 1, 1])
  // Two more poll rounds of the server (2 s each): nothing is sent twice.
  await new Promise((resolve) => setTimeout(resolve, 4500))
  expect(mailsFor(company)).toHaveLength(1)
  expect(hooksFor(company)).toHaveLength(1)
  expect(conversionsFor(company).filter((one) => one.status === 200)).toHaveLength(1)
}

async function health(url = site.url) {
  const response = await fetch(`${url}/api/health`, { headers: OPERATOR_HEADERS })
  return (await response.json()) as {
    leadDelivery?: {
      ok: boolean
      pending: number
      failed: number
      oldestPendingSeconds: number | null
      problem?: string
    }
  }
}

test('a lead with HTML in its company name and the opt-in ticked: one e-mail, webhook and conversion, escaped', async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000)
  const company = '<img src=x onerror=alert(1)> Frota & "Cia"'
  await sendLead(page, company, true)
  await expectDeliveredOnce(company, 20_000)

  const [mail] = mailsFor(company)
  const html = mail!.parts['text/html']!
  expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; Frota &amp; &quot;Cia&quot;')
  expect(html).not.toContain('<img')
  expect(html).toContain('Autorizou contato pelo WhatsApp sobre a demonstração.')
  expect(html).toContain('href="https://wa.me/5511999998888"')
  expect(decodeHeader(mail!.headers)).toContain(
    `Subject: Nova solicitação de demonstração: ${company} (51 a 100 veículos)`,
  )
  expect(mails.every((one) => one.to.join() === SALES)).toBe(true)

  const [hook] = hooksFor(company)
  expect(hook!.verified).toBe(true)
  expect(hook!.id).toBe(`msg_${hook!.body.data.id}`)
  expect(hook!.body.data).toMatchObject({
    name: VALID.name,
    email: VALID.email,
    phone: '+5511999998888',
    fleetSize: '51-100',
    message: VALID.message,
    whatsappOptIn: true,
    attribution: { page: '/', landingPage: '/' },
  })

  // RD Station's 429 (Retry-After: 2) was waited out, then the conversion went through once.
  const tries = conversionsFor(company)
  expect(tries.map((one) => one.status)).toEqual([429, 200])
  expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(2000)
  expect(tries[1]!.body.payload).toMatchObject({
    conversion_identifier: 'solicitacao-demo-site',
    email: VALID.email,
    name: VALID.name,
    company_name: company,
    mobile_phone: '+5511999998888',
    tags: ['whatsapp-opt-in'],
  })
  // The box was about WhatsApp and the demo: RD's e-mail marketing gets no consent from it.
  expect(tries[1]!.body.payload).not.toHaveProperty('legal_bases')

  // The e-mail as a salesperson sees it on a phone: nothing of the visitor's text is markup.
  const phone = await browser.newPage({ viewport: { width: 375, height: 800 } })
  let dialogs = 0
  phone.on('dialog', (dialog) => {
    dialogs++
    void dialog.dismiss()
  })
  await phone.setContent(html)
  await expect(phone.getByText(company)).toBeVisible()
  await expect(phone.getByRole('link', { name: 'Responder pelo WhatsApp' })).toHaveAttribute(
    'href',
    'https://wa.me/5511999998888',
  )
  expect(await phone.locator('img').count()).toBe(0)
  expect(dialogs).toBe(0)
  const width = await phone.evaluate(() => document.documentElement.scrollWidth)
  expect(width).toBeLessThanOrEqual(375)
  await phone.screenshot({ path: path.join('test-results', 'lead-email-375.png'), fullPage: true })
  await phone.close()

  expect((await health()).leadDelivery).toMatchObject({ ok: true, pending: 0, failed: 0 })
})

test('a lead without the opt-in says so to every destination', async ({ page }) => {
  const company = 'Transportes Sem WhatsApp'
  await sendLead(page, company, false)
  await expectDeliveredOnce(company, 20_000)
  expect(mailsFor(company)[0]!.parts['text/plain']).toContain(
    'WhatsApp: NÃO autorizou contato pelo WhatsApp',
  )
  expect(hooksFor(company)[0]!.body.data.whatsappOptIn).toBe(false)
  expect(conversionsFor(company)[0]!.body.payload).not.toHaveProperty('legal_bases')
  expect(conversionsFor(company)[0]!.body.payload).not.toHaveProperty('tags')
})

test('every receiver down and the server restarted before they return: each gets the lead once', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const company = 'Frota Durante a Queda'
  await stopReceivers()
  await sendLead(page, company, true)
  // The first attempts failed (connection refused) and were recorded for a retry.
  await expect
    .poll(() => site.log().match(new RegExp('not delivered to \\w+ yet', 'g'))?.length ?? 0, {
      timeout: 15_000,
    })
    .toBeGreaterThanOrEqual(3)
  await expect.poll(async () => (await health()).leadDelivery?.pending, { timeout: 5_000 }).toBe(3)

  await site.stop()
  site = await startSite()
  await startReceivers()
  await expectDeliveredOnce(company, 60_000)
  await expect
    .poll(async () => (await health()).leadDelivery, { timeout: 5_000 })
    .toMatchObject({
      ok: true,
      pending: 0,
      failed: 0,
    })
})

test('two instances on one PostgreSQL, the second without delivery settings: every lead still reaches every receiver', async ({
  page,
}) => {
  test.skip(!hasPostgres(), 'needs DATABASE_URL (CI starts a PostgreSQL cluster)')
  test.setTimeout(180_000)
  // A database of its own on the cluster, behind the PostgREST double, as a Supabase project is.
  const admin = await openPostgres(process.env.DATABASE_URL!)
  const name = `delivery_e2e_${Date.now()}`
  await admin.exec(`create database ${name}`)
  const url = new URL(process.env.DATABASE_URL!)
  url.pathname = `/${name}`
  const postgrest = await startPostgrestDouble({
    port: PORTS.postgrest,
    anonKey: 'anon-e2e',
    databaseUrl: url.toString(),
  })
  const supabase = {
    SUPABASE_URL: postgrest.url,
    SUPABASE_ANON_KEY: 'anon-e2e',
    // The courier's own login; here the cluster's owner, who takes the lead_courier role.
    LEAD_DELIVERY_DATABASE_URL: url.toString(),
    INTERNAL_API_SECRET: OPERATOR_SECRET,
  }
  const second = copyBuild(BUILDS.site.distDir, 'delivery-second')
  const third = copyBuild(BUILDS.site.distDir, 'delivery-third')
  let sender: Awaited<ReturnType<typeof startInstance>> | undefined
  let bare: Awaited<ReturnType<typeof startInstance>> | undefined
  try {
    sender = await startInstance({
      distDir: second.distDir,
      port: PORTS.sender,
      env: { ...BUILDS.site.env, ...supabase, ...DELIVERY_ENV() },
      logFile: path.join('test-results', 'lead-delivery-sender.log'),
    })
    // Started after the first, with no delivery settings: it used to switch every one off.
    bare = await startInstance({
      distDir: third.distDir,
      port: PORTS.second,
      env: { ...BUILDS.site.env, ...supabase },
      logFile: path.join('test-results', 'lead-delivery-bare.log'),
    })
    expect(bare.log()).toContain('changes nothing for the others')

    // One lead through each instance: each reaches all three receivers once.
    for (const [label, instance] of [
      ['Pelo Primeiro', sender],
      ['Pelo Segundo', bare],
    ] as const) {
      await sendLead(page, `Frota ${label}`, false, instance.url)
    }
    await expectDeliveredOnce('Frota Pelo Primeiro', 30_000)
    await expectDeliveredOnce('Frota Pelo Segundo', 30_000)
    await expect
      .poll(async () => health(bare!.url), { timeout: 30_000 })
      .toMatchObject({ leadDelivery: { ok: true, pending: 0 } })

    // The only instance that sends stops: a lead sent now waits, and the other instance says so.
    await sender.stop()
    sender = undefined
    await page.goto('about:blank')
    await sendLead(page, 'Frota Sem Carteiro', false, bare.url)
    await expect
      .poll(async () => (await health(bare!.url)).leadDelivery, {
        timeout: 60_000,
        intervals: [2000],
      })
      .toMatchObject({
        ok: false,
        pending: 3,
        problem: expect.stringContaining('which no running instance sends to'),
      })
    await expect
      .poll(() => bare!.log(), { timeout: 15_000 })
      .toMatch(
        /\[leads\] 1 lead\(s\) wait for email, 1 lead\(s\) wait for rdstation, 1 lead\(s\) wait for webhook, which no running instance sends to/,
      )
  } finally {
    await Promise.all([sender?.stop(), bare?.stop(), postgrest.stop()])
    second.remove()
    third.remove()
    await admin.exec(`drop database if exists ${name} with (force)`)
    await admin.close()
  }
})
