import 'server-only'

import { serverEnv } from '@/lib/env'
import { escapeHtml, senderFor, sendSmtpMessage } from '@/lib/leads/delivery/email'
import { checkMaterialMailLimits } from '@/lib/security/rate-limit'

// The e-mail that gives a visitor the material they asked for (issue 65, docs/leads.md
// "Materials"), sent by the site itself through the sales e-mail's relay (SMTP_URL): without SMTP
// it is not sent, and the page's own link is the only one. The address is whatever the form was
// given, so this is the one place the site mails someone it does not know: limited per recipient
// and per visitor address (lib/security/rate-limit.ts), one recipient, a link to this site only,
// and no word the visitor typed beyond their first name and the material's title, both escaped.

export type MaterialLinkEmailResult = 'sent' | 'not_configured' | 'rate_limited' | 'failed'

/** The whole send, connection included: the visitor's answer must not wait on a slow relay. */
export const LINK_EMAIL_DEADLINE_MS = 8000

/** One plain address: a list, a display name or a header can never ride in on it. */
const SINGLE_ADDRESS = /^[^\s@,;:<>()"'\\[\]]+@[^\s@,;:<>()"'\\[\]]+\.[^\s@,;:<>()"'\\[\]]+$/

/** One line, at most `max` characters: a subject can never become two headers. */
function oneLine(value: string, max: number): string {
  return value
    .replace(/[\r\n\u0085\u2028\u2029]+/g, ' ')
    .trim()
    .slice(0, max)
}

/**
 * The link as an absolute URL on this site (NEXT_PUBLIC_SITE_URL), or undefined: a path is
 * resolved against the site, a URL of another origin is refused, so this e-mail can never carry a
 * link somebody else chose.
 */
export function siteLink(downloadUrl: string, siteUrl = serverEnv.siteUrl): string | undefined {
  try {
    const site = new URL(siteUrl)
    const url = new URL(downloadUrl, site)
    if (url.origin !== site.origin || !/^https?:$/.test(url.protocol)) return undefined
    return url.toString()
  } catch {
    return undefined
  }
}

/** Subject, plain text and HTML, in Portuguese; every value escaped in the HTML part. */
export function composeMaterialLinkEmail(parts: {
  name: string
  materialTitle: string
  link: string
}): { subject: string; text: string; html: string } {
  const title = oneLine(parts.materialTitle, 200) || 'seu material'
  const firstName = oneLine(parts.name, 120).split(' ')[0] ?? ''
  const greeting = firstName ? `Olá, ${firstName}!` : 'Olá!'
  const subject = `Seu material da Vigia: ${title}`
  const why =
    'Você recebeu este e-mail porque este endereço foi informado no site da Vigia para baixar ' +
    'este material. Se não foi você, ignore esta mensagem: nada mais será enviado.'
  const text = [
    greeting,
    '',
    `Aqui está o link para baixar "${title}":`,
    parts.link,
    '',
    why,
    '',
    'Equipe Vigia',
  ].join('\n')
  const html = [
    '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:16px;background:#f1f5f9;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.45;color:#0f172a">',
    '<div style="max-width:600px;margin:0 auto;background:#ffffff;border-radius:12px;padding:20px">',
    `<p style="margin:0 0 12px">${escapeHtml(greeting)}</p>`,
    `<p style="margin:0 0 12px">Aqui está o link para baixar <strong>${escapeHtml(title)}</strong>:</p>`,
    `<p style="margin:20px 0"><a href="${escapeHtml(parts.link)}" style="display:inline-block;background:#15803d;color:#ffffff;text-decoration:none;font-weight:700;padding:12px 20px;border-radius:8px">Baixar o material</a></p>`,
    `<p style="margin:0 0 12px;word-break:break-all;font-size:13px;color:#475569">${escapeHtml(parts.link)}</p>`,
    `<p style="margin:20px 0 0;color:#64748b;font-size:13px">${escapeHtml(why)}</p>`,
    '<p style="margin:12px 0 0">Equipe Vigia</p>',
    '</div></body></html>',
  ].join('')
  return { subject, text, html }
}

/**
 * Mails the visitor the material's download link. Never throws and gives up after
 * LINK_EMAIL_DEADLINE_MS; the caller may await it or not. 'not_configured' without SMTP
 * (SMTP_URL and LEAD_NOTIFY_TO), 'rate_limited' past either limit, 'failed' for an address or a
 * link it will not use, or a relay that did not take it. Logs never name the address.
 */
export async function sendMaterialLinkEmail(request: {
  to: string
  name: string
  materialTitle: string
  downloadUrl: string
  ip: string
}): Promise<MaterialLinkEmailResult> {
  try {
    const email = serverEnv.leadDelivery.email
    if (!email) return 'not_configured'
    const to = request.to.trim()
    const link = siteLink(request.downloadUrl)
    if (!SINGLE_ADDRESS.test(to) || to.length > 254 || !link) {
      console.error('[materials] Link e-mail not sent: the address or the link is not one to use.')
      return 'failed'
    }
    const verdict = await checkMaterialMailLimits({ ip: request.ip, email: to })
    if (verdict !== 'ok') {
      console.warn(
        `[materials] Link e-mail not sent: the ${verdict === 'address' ? "visitor address's" : "recipient's"} limit is reached.`,
      )
      return 'rate_limited'
    }
    const { subject, text, html } = composeMaterialLinkEmail({
      name: request.name,
      materialTitle: request.materialTitle,
      link,
    })
    const info = await sendSmtpMessage(
      email.smtpUrl,
      {
        from: senderFor(email.smtpUrl, serverEnv.siteUrl, email.from),
        to,
        subject,
        text,
        html,
        // Automatic, so no out-of-office answers back to the relay's sender (RFC 3834).
        headers: { 'Auto-Submitted': 'auto-generated' },
      },
      AbortSignal.timeout(LINK_EMAIL_DEADLINE_MS),
    )
    if ((info.rejected ?? []).length > 0) {
      const codes = (info.rejectedErrors ?? []).map((error) => error.responseCode ?? '?')
      console.warn(`[materials] Link e-mail refused by the relay (SMTP ${codes.join(', ')}).`)
      return 'failed'
    }
    return 'sent'
  } catch (error) {
    const code = (error as { responseCode?: unknown } | null)?.responseCode
    const name = (error as { name?: unknown } | null)?.name
    console.error(
      `[materials] Link e-mail not sent: ${typeof code === 'number' ? `SMTP ${code}` : typeof name === 'string' ? name : 'unexpected error'}.`,
    )
    return 'failed'
  }
}
