// How the Studio asks the site for its figures: GET /api/analytics on the Studio's own origin (the
// Studio is embedded at /studio), with the signed-in editor's Sanity token as a Bearer token. Each
// failure becomes one ReportError whose message an editor can act on, in Portuguese.

import {
  CONVERSION_GROUP_SPECS,
  DIMENSION_SPECS,
  reportSchema,
  reportSearchParams,
  type Report,
  type ReportGroup,
} from '../../lib/analytics/report-schema'

export const ANALYTICS_ENDPOINT = '/api/analytics'

export type ReportQuery = { from: string; to: string; by: ReportGroup; path?: string }

export type ReportErrorKind = 'unauthorized' | 'forbidden' | 'network' | 'server' | 'invalid'

export class ReportError extends Error {
  constructor(
    readonly kind: ReportErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message)
    this.name = 'ReportError'
  }

  /** A network hiccup or a server error may pass; a refusal will not without signing in again. */
  get retryable(): boolean {
    return this.kind !== 'unauthorized' && this.kind !== 'forbidden'
  }
}

export type Fetch = typeof fetch

export function reportUrl(query: ReportQuery, format?: 'csv'): string {
  return `${ANALYTICS_ENDPOINT}?${reportSearchParams({ ...query, format })}`
}

/** The message the server gave, when it sent one as JSON ({ error } or { message }). */
async function serverMessage(response: Response): Promise<string | undefined> {
  try {
    const body: unknown = await response.clone().json()
    if (body && typeof body === 'object') {
      for (const field of ['error', 'message'] as const) {
        const value = (body as Record<string, unknown>)[field]
        if (typeof value === 'string' && value.trim()) return value.trim()
      }
    }
  } catch {
    // Not JSON: our own message says enough.
  }
  return undefined
}

async function refusal(response: Response): Promise<ReportError> {
  const said = await serverMessage(response)
  const detail = said ? ` O servidor respondeu: "${said}"` : ''
  if (response.status === 401)
    return new ReportError(
      'unauthorized',
      'O site não reconheceu a sua sessão do Studio (erro 401). Saia do Studio e entre de novo; se continuar, confira se o site e o Studio usam o mesmo projeto Sanity.' +
        detail,
      401,
    )
  if (response.status === 403)
    return new ReportError(
      'forbidden',
      'A sua conta do Studio não tem permissão para ver o desempenho do site (erro 403). Peça acesso a quem administra o projeto Sanity.' +
        detail,
      403,
    )
  if (response.status >= 500)
    return new ReportError(
      'server',
      `O site não conseguiu montar o relatório agora (erro ${response.status}). Tente de novo em alguns instantes.` +
        detail,
      response.status,
    )
  return new ReportError(
    'invalid',
    `O site recusou o pedido do relatório (erro ${response.status}).${detail}`,
    response.status,
  )
}

async function request(
  url: string,
  token: string,
  fetchImpl: Fetch,
  signal?: AbortSignal,
  body?: unknown,
) {
  let response: Response
  try {
    response = await fetchImpl(url, {
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      cache: 'no-store',
      signal,
      ...(body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }),
    })
  } catch (error) {
    if (signal?.aborted) throw error
    throw new ReportError(
      'network',
      'Não foi possível falar com o site para buscar os números. Confira a sua conexão e tente de novo.',
    )
  }
  if (!response.ok) throw await refusal(response)
  return response
}

export async function fetchReport(
  query: ReportQuery,
  token: string,
  fetchImpl: Fetch = fetch,
  signal?: AbortSignal,
): Promise<Report> {
  const response = await request(reportUrl(query), token, fetchImpl, signal)
  let body: unknown
  try {
    body = await response.json()
  } catch {
    body = undefined
  }
  const parsed = reportSchema.safeParse(body)
  if (!parsed.success || parsed.data.by !== query.by)
    throw new ReportError(
      'invalid',
      'O site respondeu num formato que o Studio não reconhece. Tente de novo; se continuar, o site e o Studio podem estar em versões diferentes.',
    )
  return parsed.data
}

/**
 * The CSV file's name per `by`: each reported dimension's and conversion grouping's `file`
 * (measures.mjs), and the days.
 */
const DIMENSION_FILE_NAMES = Object.fromEntries([
  ...DIMENSION_SPECS.flatMap((spec) => ('report' in spec ? [[spec.report, spec.file]] : [])),
  ...CONVERSION_GROUP_SPECS.map((spec) => [spec.report, spec.file]),
  ['day', 'dias'],
]) as Record<ReportGroup, string>

/** "desempenho-paginas-2026-10-28-a-2026-11-26.csv"; one page's adds its path ("-p-onibus"). */
export function csvFileName(query: ReportQuery): string {
  const page = query.path
    ? `-${query.path.replace(/[^a-z0-9-]+/gi, '-').replace(/^-+|-+$/g, '')}`
    : ''
  return `desempenho${page}-${DIMENSION_FILE_NAMES[query.by]}-${query.from}-a-${query.to}.csv`
}

/**
 * Fetches the CSV with the token (a plain link could not send the Authorization header) and hands
 * it to the browser as a download.
 */
export async function downloadReportCsv(
  query: ReportQuery,
  token: string,
  fetchImpl: Fetch = fetch,
): Promise<void> {
  const response = await request(reportUrl(query, 'csv'), token, fetchImpl)
  // Bytes as sent: the byte-order mark pt-BR Excel needs stays in the file.
  const blob = await response.blob()
  const url = URL.createObjectURL(new Blob([blob], { type: 'text/csv;charset=utf-8' }))
  try {
    const link = document.createElement('a')
    link.href = url
    link.download = csvFileName(query)
    link.hidden = true
    document.body.append(link)
    link.click()
    link.remove()
  } finally {
    // The click has queued the download; the URL is no longer needed once the task ends.
    setTimeout(() => URL.revokeObjectURL(url), 0)
  }
}

/** Campaigns named in the Studio: always counted under their own name (docs/analytics.md). */
export const CAMPAIGNS_ENDPOINT = '/api/analytics/campaigns'

/** The campaigns named so far, newest first. */
export async function fetchNamedCampaigns(token: string, fetchImpl: Fetch = fetch) {
  const response = await request(CAMPAIGNS_ENDPOINT, token, fetchImpl)
  const body = (await response.json().catch(() => ({}))) as { campaigns?: unknown }
  return Array.isArray(body.campaigns)
    ? body.campaigns.filter((name): name is string => typeof name === 'string')
    : []
}

/** Names a campaign; resolves with the name as the site keeps it. */
export async function saveNamedCampaign(campaign: string, token: string, fetchImpl: Fetch = fetch) {
  const response = await request(CAMPAIGNS_ENDPOINT, token, fetchImpl, undefined, {
    campaign,
  }).catch((error: unknown) => {
    // A 403 here is about naming, not about seeing the figures (which this user may).
    if (error instanceof ReportError && error.kind === 'forbidden')
      throw new ReportError(
        'forbidden',
        'A sua função no projeto Sanity não permite salvar campanhas (erro 403). Peça a um administrador ou editor; o link pode ser copiado mesmo assim.',
        403,
      )
    throw error
  })
  const body = (await response.json().catch(() => ({}))) as { campaign?: unknown }
  return typeof body.campaign === 'string' ? body.campaign : campaign
}
