// A form post the site's forms could not have sent is answered before any page code runs
// (proxy.ts): an oversized body with 413 and a body of another kind with 400, each with a
// Portuguese text, rather than Next's generic error. The two forms (the demo request, a
// material's) post a few kilobytes as multipart/form-data, or urlencoded from an older browser.

/** Far above what either form sends (5 fields of at most 2,000 characters, and hidden fields). */
export const MAX_FORM_POST_BYTES = 64 * 1024

const FORM_TYPES = ['multipart/form-data', 'application/x-www-form-urlencoded']

export type PostVerdict = { status: 413 | 400; message: string } | null

/** Why this POST to a page is refused, or null to let it through. */
export function formPostProblem(headers: Pick<Headers, 'get'>): PostVerdict {
  const length = Number(headers.get('content-length'))
  if (Number.isFinite(length) && length > MAX_FORM_POST_BYTES) {
    return {
      status: 413,
      message:
        'O envio é grande demais para este formulário. Confira os campos e tente de novo: o que você digitou continua na página anterior.',
    }
  }
  const type = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (!FORM_TYPES.includes(type)) {
    return {
      status: 400,
      message:
        'Este envio não veio de um formulário do site. Volte à página e envie pelo formulário.',
    }
  }
  return null
}
