import fs from 'node:fs'
import tls from 'node:tls'

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'

import {
  decodeHeader,
  parseMessage,
  startSmtpDouble,
  TEST_CA_FILE,
} from '../support/lead-receivers.mjs'

// The visitor's download-link e-mail (lib/materials/link-email.ts, issue 65) through an SMTP relay
// as strict as the real ones, and its limits: the form takes any address, so one inbox, and one
// client address, can be mailed only so often.

const PORT = 20_000 + Math.floor(Math.random() * 10_000)
let smtp: Awaited<ReturnType<typeof startSmtpDouble>>

/** A fresh copy of the module (and of its limits' counters) with SMTP set, or not. */
async function linkEmail(env: Record<string, string> = {}) {
  vi.resetModules()
  vi.stubEnv('REDIS_URL', '')
  vi.stubEnv('NEXT_PUBLIC_SITE_URL', 'https://vigia.example')
  vi.stubEnv('SMTP_URL', smtp.url)
  vi.stubEnv('LEAD_NOTIFY_TO', 'vendas@vigia.example')
  vi.stubEnv('LEAD_NOTIFY_FROM', 'Vigia <materiais@vigia.example>')
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value)
  return import('@/lib/materials/link-email')
}

let n = 0
const freshIp = () => `203.0.113.${++n}`

beforeAll(async () => {
  tls.setDefaultCACertificates([
    ...tls.getCACertificates('default'),
    fs.readFileSync(TEST_CA_FILE, 'utf8'),
  ])
  smtp = await startSmtpDouble({ port: PORT, refuse: { 'cheia@frota.example': 452 } })
})
afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})
afterAll(async () => {
  await smtp?.stop()
})

const request = {
  to: 'ana@frota.example',
  name: 'Ana <b>Souza</b>',
  materialTitle: 'Guia "fadiga" & <sono>',
  downloadUrl: '/materiais/guia-fadiga/baixar?t=abc',
}

describe('the download-link e-mail', () => {
  it('mails the visitor the link in Portuguese, every value escaped, from the configured sender', async () => {
    const { sendMaterialLinkEmail } = await linkEmail()
    const before = smtp.messages.length
    expect(await sendMaterialLinkEmail({ ...request, ip: freshIp() })).toBe('sent')
    const message = smtp.messages[before]!
    expect(message.to).toEqual(['ana@frota.example'])
    expect(message.from).toBe('materiais@vigia.example')
    const mail = parseMessage(message.raw)
    expect(decodeHeader(mail.headers)).toContain('Seu material da Vigia: Guia "fadiga" & <sono>')
    expect(mail.headers).toMatch(/Auto-Submitted: auto-generated/i)
    const link = 'https://vigia.example/materiais/guia-fadiga/baixar?t=abc'
    expect(mail.parts['text/plain']).toContain('Olá, Ana!')
    expect(mail.parts['text/plain']).toContain(link)
    expect(mail.parts['text/html']).toContain('Guia &quot;fadiga&quot; &amp; &lt;sono&gt;')
    expect(mail.parts['text/html']).toContain(`href="${link}"`)
    expect(mail.parts['text/html']).not.toMatch(/<sono>|<b>/)
    expect(smtp.logins.every((login) => login.secure)).toBe(true)
  })

  it('sends nothing without SMTP, nor to a list, nor a link to another site', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const before = smtp.messages.length
    const off = await linkEmail({ SMTP_URL: '', LEAD_NOTIFY_TO: '' })
    expect(await off.sendMaterialLinkEmail({ ...request, ip: freshIp() })).toBe('not_configured')
    const { sendMaterialLinkEmail } = await linkEmail()
    for (const to of ['a@x.example, b@y.example', 'A <a@x.example>', 'a@x.example\r\nBcc: b@y'])
      expect(await sendMaterialLinkEmail({ ...request, to, ip: freshIp() })).toBe('failed')
    for (const downloadUrl of [
      'https://outro.example/x',
      'javascript:alert(1)',
      '//outro.example/x',
    ])
      expect(await sendMaterialLinkEmail({ ...request, downloadUrl, ip: freshIp() })).toBe('failed')
    expect(smtp.messages.length).toBe(before)
    // The log never names the address.
    expect(errors.mock.calls.flat().join('\n')).not.toContain('x.example')
  })

  it('a relay that defers the recipient is a failure, never an exception', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { sendMaterialLinkEmail } = await linkEmail()
    expect(
      await sendMaterialLinkEmail({ ...request, to: 'cheia@frota.example', ip: freshIp() }),
    ).toBe('failed')
    const down = await linkEmail({ SMTP_URL: `smtp://u:p@127.0.0.1:${PORT + 1}` })
    expect(await down.sendMaterialLinkEmail({ ...request, ip: freshIp() })).toBe('failed')
  })

  it('mails one inbox at most 3 times a day, whatever the client address, in any case', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { sendMaterialLinkEmail } = await linkEmail()
    const before = smtp.messages.length
    const results = []
    for (const to of [
      'Bia@Frota.example',
      'bia@frota.example',
      'BIA@FROTA.EXAMPLE',
      'bia@frota.example',
    ])
      results.push(await sendMaterialLinkEmail({ ...request, to, ip: freshIp() }))
    expect(results).toEqual(['sent', 'sent', 'sent', 'rate_limited'])
    expect(smtp.messages.length - before).toBe(3)
    expect(warn.mock.calls.flat().join('\n')).toMatch(/recipient's limit is reached/)
    expect(warn.mock.calls.flat().join('\n')).not.toMatch(/bia@/i)
  })

  it('lets one client address have 10 sent an hour, to whatever inboxes', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { sendMaterialLinkEmail } = await linkEmail()
    const ip = '2001:db8:9:9::1'
    const results = []
    for (let i = 0; i < 11; i++)
      results.push(
        // Another address of the same IPv6 /64 is the same client.
        await sendMaterialLinkEmail({
          ...request,
          to: `c${i}@frota.example`,
          ip: ip.replace('::1', `::${i + 1}`),
        }),
      )
    expect(results.slice(0, 10).every((result) => result === 'sent')).toBe(true)
    expect(results[10]).toBe('rate_limited')
    expect(
      await sendMaterialLinkEmail({ ...request, to: 'c99@frota.example', ip: freshIp() }),
    ).toBe('sent')
  }, 30_000)
})
