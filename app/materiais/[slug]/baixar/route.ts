import { getMaterialFile } from '@/lib/content'
import { checkDownloadKey, DOWNLOAD_KEY_PARAM } from '@/lib/materials/download-link'
import { openMaterialFile } from '@/lib/materials/file'
import { materialPath, SLUG_PATTERN } from '@/sanity/lib/paths'

// A material's gated download (issue 65): only with a key the form's answer signed, for this
// slug, before its expiry, while the material is published and inside its window. Never cached by
// anyone but the visitor's browser, and never indexed.
export const dynamic = 'force-dynamic'

const PRIVATE = {
  'cache-control': 'private, no-store',
  'x-robots-tag': 'noindex, nofollow',
}

const escape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** A small Portuguese page for a link that cannot give the file: why, and where to get a new one. */
function refusal(status: number, title: string, text: string, slug: string | null) {
  const back = slug ? materialPath(slug) : '/materiais'
  const html = `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)} | Vigia</title>
<style>body{font-family:system-ui,sans-serif;margin:0;padding:3rem 1.5rem;color:#0f172a;background:#f8fafc}main{max-width:36rem;margin:0 auto}h1{font-size:1.75rem;margin:0 0 1rem}p{line-height:1.6;color:#334155}a{display:inline-block;margin-top:1rem;padding:.75rem 1.25rem;border-radius:.5rem;background:#1d4ed8;color:#fff;font-weight:600;text-decoration:none}</style>
</head><body><main><h1>${escape(title)}</h1><p>${escape(text)}</p><a href="${escape(back)}">Pedir um novo link</a></main></body></html>`
  return new Response(html, {
    status,
    headers: { ...PRIVATE, 'content-type': 'text/html; charset=utf-8' },
  })
}

type Context = { params: Promise<{ slug: string }> }

export async function GET(request: Request, { params }: Context) {
  const { slug } = await params
  if (!SLUG_PATTERN.test(slug)) {
    return refusal(404, 'Link inválido', 'Este link de download não existe.', null)
  }
  const key = new URL(request.url).searchParams.get(DOWNLOAD_KEY_PARAM)
  const verdict = checkDownloadKey(slug, key)
  if (verdict === 'invalid') {
    return refusal(
      404,
      'Link inválido',
      'Este link de download não é válido. Preencha o formulário do material para receber um link novo.',
      slug,
    )
  }
  if (verdict === 'expired') {
    return refusal(
      403,
      'Link expirado',
      'Este link de download expirou (ele vale por 24 horas). Preencha o formulário de novo para receber um link novo.',
      slug,
    )
  }
  let material: Awaited<ReturnType<typeof getMaterialFile>>
  try {
    material = await getMaterialFile(slug)
  } catch (error) {
    console.error('[materials] Could not read the material for its download:', error)
    return refusal(
      503,
      'Tente de novo em instantes',
      'Não foi possível preparar o arquivo agora.',
      slug,
    )
  }
  if (!material) {
    return refusal(
      404,
      'Material indisponível',
      'Este material não está mais disponível para download.',
      null,
    )
  }
  const file = await openMaterialFile(material).catch((error: unknown) => {
    console.error('[materials] Could not open the file:', error)
    return null
  })
  if (!file) {
    return refusal(
      502,
      'Arquivo indisponível',
      'Não foi possível buscar o arquivo agora. Tente de novo em instantes.',
      slug,
    )
  }
  return new Response(file.body, {
    headers: {
      ...PRIVATE,
      'content-type': file.type,
      'content-disposition': `attachment; filename="${slug}.pdf"`,
      'x-content-type-options': 'nosniff',
      ...(file.size ? { 'content-length': String(file.size) } : {}),
    },
  })
}
