import { FLEET_SIZE_LABELS } from '@/lib/validations/demo-request-fields'
import { SEGMENT_LABELS } from '@/lib/validations/material-request-fields'
import { siteDateTime } from '@/lib/site-time.mjs'
import { whatsappNumberUrl } from '@/lib/whatsapp'

import type { DeliveredConversion, DeliveredLead } from './lead'
import { ATTEMPT_DEADLINE_MS } from './queue.mjs'
import { classifyError, type AttemptResult } from './retry'

// The e-mail to sales (issue 46): Portuguese, a plain-text part and an HTML part in which every
// value is escaped. What the visitor typed is never HTML, a header of its own or a recipient: it
// goes into the body (escaped) and the subject (one line, encoded by nodemailer), nowhere else.

const NOT_GIVEN = 'Não informado'

export type LeadEmail = { subject: string; text: string; html: string }

/** Every character that means something in HTML text or in a quoted attribute. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"'`]/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' })[
        char
      ]!,
  )
}

/** One line, whatever was stored: a subject can never become two headers. */
function oneLine(value: string): string {
  return value.replace(/[\r\n\u0085\u2028\u2029]+/g, ' ').trim()
}

/** The phone as people read it ('+55 11 99999-8888' style) without a parser: digits grouped. */
function showPhone(phone: string): string {
  const digits = phone.replace(/^\+/, '')
  const br = digits.match(/^55(\d{2})(\d{4,5})(\d{4})$/)
  return br ? `+55 (${br[1]}) ${br[2]}-${br[3]}` : `+${digits}`
}

/** `https://wa.me/<digits>` (lib/whatsapp.ts), for a phone of 8 digits or more. */
export function whatsappLink(phone: string | null): string | null {
  if (!phone || phone.replace(/\D/g, '').length < 8) return null
  return whatsappNumberUrl(phone)
}

function receivedAt(iso: string): string {
  return siteDateTime(new Date(iso))
}

function originRows(lead: DeliveredLead): [string, string][] {
  const a = lead.attribution
  const campaign = [
    a.utmSource && `origem ${a.utmSource}`,
    a.utmMedium && `mídia ${a.utmMedium}`,
    a.utmCampaign && `campanha ${a.utmCampaign}`,
  ]
    .filter(Boolean)
    .join(', ')
  return [
    ['Enviado da página', a.page ?? '/ (página inicial)'],
    ['Página de entrada', a.landingPage ?? NOT_GIVEN],
    ['Campanha', campaign || 'Sem campanha (UTM)'],
    ['Veio de', a.referrerHost ?? 'Acesso direto ou não informado'],
    // Only while an experiment ran on the page: '<experimento>/<versão>' (docs/experiments.md).
    ...(a.variant ? [['Versão do experimento', a.variant] as [string, string]] : []),
  ]
}

export function composeLeadEmail(lead: DeliveredLead): LeadEmail {
  if (lead.kind === 'material') return composeMaterialEmail(lead)
  const fleet = lead.fleetSize ? FLEET_SIZE_LABELS[lead.fleetSize] : null
  const subject = oneLine(
    `Nova solicitação de demonstração: ${lead.company || NOT_GIVEN} (${fleet ?? 'frota não informada'})`,
  )
  const wa = whatsappLink(lead.phone)
  const consent = lead.whatsappOptIn
    ? 'Autorizou contato pelo WhatsApp sobre a demonstração.'
    : 'NÃO autorizou contato pelo WhatsApp: prefira e-mail ou telefone.'
  const fields: [string, string][] = [
    ['Nome', lead.name || NOT_GIVEN],
    ['Empresa', lead.company || NOT_GIVEN],
    ['E-mail', lead.email || NOT_GIVEN],
    ['Telefone', lead.phone ? showPhone(lead.phone) : NOT_GIVEN],
    ['Tamanho da frota', fleet ?? NOT_GIVEN],
    ['Mensagem', lead.message || NOT_GIVEN],
    ...(lead.calculator ? [['Calculadora', lead.calculator.summary] as [string, string]] : []),
    ['WhatsApp', consent],
  ]
  const origin = originRows(lead)
  const footer = `Recebida em ${receivedAt(lead.createdAt)} (horário de Brasília). Id: ${lead.id}`

  const text = [
    'Nova solicitação de demonstração pelo site.',
    '',
    ...fields.map(([label, value]) => `${label}: ${value}`),
    ...(wa ? ['', `Responder pelo WhatsApp: ${wa}`] : []),
    '',
    'De onde veio',
    ...origin.map(([label, value]) => `${label}: ${value}`),
    '',
    footer,
  ].join('\n')

  const html = htmlLayout({
    subject,
    heading: 'Nova solicitação de demonstração',
    fields,
    button: wa ? { href: wa, label: 'Responder pelo WhatsApp' } : undefined,
    origin,
    footer,
  })

  return { subject, text, html }
}

/** The HTML part both e-mails share: a heading, the fields, a button, where it came from. */
function htmlLayout(parts: {
  subject: string
  heading: string
  fields: [string, string][]
  button?: { href: string; label: string }
  origin: [string, string][]
  footer: string
}): string {
  const { subject, fields, origin, footer } = parts
  const row = ([label, value]: [string, string]) =>
    `<tr><th align="left" valign="top" style="padding:6px 12px 6px 0;color:#475569;font-weight:600;white-space:nowrap">${escapeHtml(label)}</th>` +
    // A phone number breaks nowhere; everything else may wrap on a narrow screen.
    `<td style="padding:6px 0;color:#0f172a;${label === 'Telefone' ? 'white-space:nowrap' : 'word-break:break-word'}">${escapeHtml(value)}</td></tr>`
  const button = parts.button
    ? `<p style="margin:20px 0"><a href="${escapeHtml(parts.button.href)}" style="display:inline-block;background:#15803d;color:#ffffff;text-decoration:none;font-weight:700;padding:12px 20px;border-radius:8px">${escapeHtml(parts.button.label)}</a></p>`
    : ''
  return [
    '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:16px;background:#f1f5f9;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.45">',
    '<div style="max-width:600px;margin:0 auto;background:#ffffff;border-radius:12px;padding:20px">',
    `<h1 style="margin:0 0 12px;font-size:20px;color:#0f172a">${escapeHtml(parts.heading)}</h1>`,
    `<table role="presentation" style="border-collapse:collapse;width:100%">${fields.map(row).join('')}</table>`,
    button,
    '<h2 style="margin:20px 0 8px;font-size:16px;color:#0f172a">De onde veio</h2>',
    `<table role="presentation" style="border-collapse:collapse;width:100%">${origin.map(row).join('')}</table>`,
    `<p style="margin:20px 0 0;color:#64748b;font-size:13px">${escapeHtml(footer)}</p>`,
    '</div></body></html>',
  ].join('')
}

/**
 * A material's download (issue 65), queued for sales only when the material asks for it: what the
 * visitor gave on the material's form, which material, and whether they agreed to marketing
 * e-mail (the only consent that form asks for).
 */
export function composeMaterialEmail(lead: DeliveredConversion): LeadEmail {
  const subject = oneLine(`Download de material: ${lead.conversion.title}`)
  const fields: [string, string][] = [
    ['Material', `${lead.conversion.title} (${lead.conversion.identifier})`],
    ['Nome', lead.name || NOT_GIVEN],
    ['Empresa', lead.company || NOT_GIVEN],
    ['E-mail', lead.email || NOT_GIVEN],
    ['Telefone', lead.phone ? showPhone(lead.phone) : NOT_GIVEN],
    ...(lead.role ? [['Cargo', lead.role] as [string, string]] : []),
    ...(lead.segment ? [['Segmento', SEGMENT_LABELS[lead.segment]] as [string, string]] : []),
    ...(lead.fleetSize
      ? [['Tamanho da frota', FLEET_SIZE_LABELS[lead.fleetSize]] as [string, string]]
      : []),
    ...(lead.message ? [['Mensagem', lead.message] as [string, string]] : []),
    [
      'E-mails de marketing',
      lead.emailConsent
        ? 'Aceitou receber e-mails da Vigia com conteúdos e novidades.'
        : 'NÃO aceitou receber e-mails de marketing.',
    ],
  ]
  const origin = originRows(lead)
  const footer = `Recebido em ${receivedAt(lead.createdAt)} (horário de Brasília). Id: ${lead.id}`
  const text = [
    `Download de material pelo site: ${oneLine(lead.conversion.title)}.`,
    '',
    ...fields.map(([label, value]) => `${label}: ${value}`),
    // No WhatsApp consent was asked on this form: the number is shown, not offered as a button.
    '',
    'De onde veio',
    ...origin.map(([label, value]) => `${label}: ${value}`),
    '',
    footer,
  ].join('\n')
  const html = htmlLayout({ subject, heading: 'Download de material', fields, origin, footer })
  return { subject, text, html }
}

/** The sender: LEAD_NOTIFY_FROM, else the SMTP login when it is an address, else site@<host>. */
export function senderFor(smtpUrl: string, siteUrl: string, from?: string): string {
  if (from) return from
  const user = decodeURIComponent(new URL(smtpUrl).username)
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(user)) return `Site Vigia <${user}>`
  return `Site Vigia <site@${new URL(siteUrl).hostname}>`
}

type Transport = {
  sendMail(message: Record<string, unknown>): Promise<unknown>
  close(options?: { force?: boolean }): void
}

/** What nodemailer says of a message the relay took: the recipients it refused, if any. */
export type SmtpInfo = { rejected?: unknown[]; rejectedErrors?: { responseCode?: number }[] }

/**
 * One message through `smtpUrl` within `signal`'s deadline: a connection of its own, closed by
 * force when the deadline passes, so that no exchange goes on after the caller gave up
 * (nodemailer's own time-outs are per step, and a relay that trickles its answers never trips
 * them). Throws what nodemailer throws (`responseCode` on an SMTP answer), or the signal's reason.
 */
export async function sendSmtpMessage(
  smtpUrl: string,
  message: Record<string, unknown>,
  signal: AbortSignal,
): Promise<SmtpInfo> {
  const nodemailer = await import('nodemailer')
  // A pool of one: its close({ force }) is nodemailer's way to end a delivery in progress.
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 1,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 15_000,
  } as Parameters<typeof nodemailer.createTransport>[0]) as unknown as Transport
  let onAbort: (() => void) | undefined
  const deadline = new Promise<never>((_, reject) => {
    onAbort = () => {
      transport.close({ force: true })
      reject(signal.reason ?? new DOMException('The attempt timed out.', 'TimeoutError'))
    }
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
  })
  try {
    return ((await Promise.race([transport.sendMail(message), deadline])) ?? {}) as SmtpInfo
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort)
    deadline.catch(() => undefined)
    transport.close()
  }
}

/**
 * Sends the e-mail to sales through SMTP_URL, within the attempt's deadline (`signal`,
 * sendSmtpMessage). An SMTP 5xx answer (unknown recipient, refused sender, failed login) stops,
 * as an HTTP 4xx does; a 4xx answer, a refused or timed-out connection is tried again.
 */
export async function sendLeadEmail(
  lead: DeliveredLead,
  options: { smtpUrl: string; to: string[]; from: string },
  signal: AbortSignal = AbortSignal.timeout(ATTEMPT_DEADLINE_MS),
): Promise<AttemptResult> {
  const { subject, text, html } = composeLeadEmail(lead)
  try {
    const info = await sendSmtpMessage(
      options.smtpUrl,
      {
        from: options.from,
        to: options.to,
        subject,
        text,
        html,
        headers: { 'X-Vigia-Lead-Id': lead.id },
      },
      signal,
    )
    // Some recipients took it: it is delivered, and sending again would repeat it to them. Those
    // refused are named (sales' own addresses, never the visitor's) for the operator to fix.
    const refused = info.rejected ?? []
    if (refused.length > 0) {
      const codes = (info.rejectedErrors ?? []).map((error) => error.responseCode ?? '?')
      console.warn(
        `[leads] Lead ${lead.id}: the e-mail reached ${options.to.length - refused.length} of ` +
          `${options.to.length} recipients; refused: ${refused.map(String).join(', ')} (SMTP ${codes.join(', ')}). Check LEAD_NOTIFY_TO.`,
      )
    }
    return { kind: 'delivered' }
  } catch (error) {
    if (signal.aborted) return { kind: 'retry', reason: 'timeout' }
    const code = (error as { responseCode?: unknown }).responseCode
    if (typeof code === 'number') {
      return code >= 500
        ? { kind: 'reject', reason: `SMTP ${code}` }
        : { kind: 'retry', reason: `SMTP ${code}` }
    }
    return classifyError(error)
  }
}
