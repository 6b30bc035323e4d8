import { createHash } from 'node:crypto'

import { sameSecret } from '@/lib/security/same-secret'

import { CAMPAIGN_NAMING_ROLES } from './campaign-link'

// Who may read the figures (GET /api/analytics): the holder of ANALYTICS_READ_TOKEN, or a user of
// the Sanity project, checked with Sanity itself (docs/analytics.md, "Reading the figures"). Who
// may name a campaign: only a Studio user whose role can write (CAMPAIGN_NAMING_ROLES), since a
// name changes what the counting keeps; a read credential only reads.

export type ReaderCheck =
  | { ok: true; who: 'token' | 'sanity-user' }
  | { ok: false; status: 401 | 403 | 429 | 503; error: string }

export type ReaderAuthOptions = {
  readToken?: string
  /** The project's API: https://<projectId>.api.sanity.io, or SANITY_API_HOST. Unset: no users. */
  sanityApiBase?: string
  apiVersion: string
  fetch?: typeof fetch
  now?: () => number
}

/** A positive answer from Sanity is trusted this long, so the Studio's requests do not each ask. */
export const USER_CACHE_MS = 60_000
/** A refusal (unknown token, not a member) is remembered this long: a replayed bad token asks once. */
export const REFUSAL_CACHE_MS = 30_000
/** Refused tokens Sanity is asked about per client address and minute (each costs a users/me). */
export const REFUSALS_PER_MINUTE = 10
const USER_CACHE_MAX = 1000
const SANITY_TIMEOUT_MS = 5000

const MISSING =
  'Envie o cabeçalho Authorization: Bearer <token> (o ANALYTICS_READ_TOKEN ou o token de um usuário do Studio).'
const INVALID = 'Token inválido ou expirado.'
const NOT_MEMBER = 'Este usuário do Sanity não é membro do projeto: sem acesso aos números.'
const CANNOT_WRITE =
  'A sua função no projeto Sanity só permite ler. Peça a um administrador ou editor para salvar a campanha.'
const READS_ONLY =
  'Esta credencial só lê os números. Salve a campanha pelo Studio, com uma conta de administrador, editor, developer ou contributor.'
const TOO_MANY =
  'Muitos tokens recusados deste endereço. Aguarde um minuto e tente de novo com um token válido.'

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest()
}

/** The bearer token of an Authorization header, or undefined. */
export function bearerToken(header: string | null | undefined): string | undefined {
  const match = /^Bearer\s+([^\s]+)\s*$/i.exec(header ?? '')
  return match?.[1]
}

type SanityUser = { id?: unknown; role?: unknown; roles?: unknown }

/** The names of a users/me answer's roles in the project (`roles: [{name}]`, or one `role`). */
function roleNames(user: SanityUser): string[] | undefined {
  if (Array.isArray(user.roles))
    return user.roles.flatMap((role) =>
      typeof role === 'string'
        ? [role]
        : typeof (role as { name?: unknown })?.name === 'string'
          ? [(role as { name: string }).name]
          : [],
    )
  return typeof user.role === 'string' && user.role !== '' ? [user.role] : undefined
}

/** What a request needs: to read the figures, or to change what is counted (name a campaign). */
export type Need = 'read' | 'write'

export function createReaderAuth(options: ReaderAuthOptions) {
  const now = options.now ?? Date.now
  const doFetch = options.fetch ?? fetch
  /** sha256(token) → when the positive answer expires, and whether the user's role can write. */
  const members = new Map<string, { until: number; canWrite: boolean }>()
  /** sha256(token) → the refusal and when it expires (REFUSAL_CACHE_MS). */
  const refused = new Map<string, { check: ReaderCheck; until: number }>()
  /** Client address → refusals in the current minute. */
  const refusals = new Map<string, { count: number; since: number }>()

  function remember(map: Map<string, unknown>) {
    if (map.size >= USER_CACHE_MAX) map.clear()
  }

  function tooMany(client: string): boolean {
    const entry = refusals.get(client)
    return entry !== undefined && now() - entry.since < 60_000 && entry.count >= REFUSALS_PER_MINUTE
  }

  function countRefusal(client: string) {
    const entry = refusals.get(client)
    if (entry && now() - entry.since < 60_000) entry.count += 1
    else {
      remember(refusals)
      refusals.set(client, { count: 1, since: now() })
    }
  }

  async function askSanity(token: string, client: string, need: Need): Promise<ReaderCheck> {
    if (!options.sanityApiBase) return { ok: false, status: 401, error: INVALID }
    const key = digest(token).toString('hex')
    const member = members.get(key)
    if (member !== undefined && member.until > now()) return granted(member.canWrite, need)
    members.delete(key)
    const known = refused.get(key)
    if (known && known.until > now()) return known.check
    refused.delete(key)
    if (tooMany(client)) return { ok: false, status: 429, error: TOO_MANY }
    const check = await verify(token, key, need)
    if (!check.ok && (check.status === 401 || check.status === 403)) {
      remember(refused)
      refused.set(key, { check, until: now() + REFUSAL_CACHE_MS })
      countRefusal(client)
    }
    return check
  }

  function granted(canWrite: boolean, need: Need): ReaderCheck {
    if (need === 'write' && !canWrite) return { ok: false, status: 403, error: CANNOT_WRITE }
    return { ok: true, who: 'sanity-user' }
  }

  async function verify(token: string, key: string, need: Need): Promise<ReaderCheck> {
    let response: Response
    try {
      response = await doFetch(`${options.sanityApiBase}/v${options.apiVersion}/users/me`, {
        headers: { authorization: `Bearer ${token}` },
        cache: 'no-store',
        signal: AbortSignal.timeout(SANITY_TIMEOUT_MS),
      })
    } catch {
      return {
        ok: false,
        status: 503,
        error:
          'Não foi possível confirmar o usuário com o Sanity agora. Tente de novo em instantes.',
      }
    }
    if (response.status === 401 || response.status === 403)
      return { ok: false, status: 401, error: INVALID }
    if (!response.ok)
      return {
        ok: false,
        status: 503,
        error: 'O Sanity não confirmou o usuário agora. Tente de novo em instantes.',
      }
    const user = (await response.json().catch(() => ({}))) as SanityUser
    // An unknown token gets an empty object from users/me.
    if (typeof user.id !== 'string' || !user.id) return { ok: false, status: 401, error: INVALID }
    // On the project's host, users/me lists the user's roles in that project: none, no access.
    const roles = roleNames(user) ?? []
    if (roles.length === 0) return { ok: false, status: 403, error: NOT_MEMBER }
    // A custom role is not known to write: it reads, and names nothing.
    const canWrite = roles.some((role) =>
      (CAMPAIGN_NAMING_ROLES as readonly string[]).includes(role),
    )
    remember(members)
    members.set(key, { until: now() + USER_CACHE_MS, canWrite })
    return granted(canWrite, need)
  }

  return {
    /**
     * Checks the Authorization header of a request for the figures (`need` 'read') or to name a
     * campaign ('write'); `client` is the caller's address (rate-limit key,
     * lib/security/client-ip.ts), for the refused tokens' limit.
     */
    async check(
      header: string | null | undefined,
      client = 'unknown',
      need: Need = 'read',
    ): Promise<ReaderCheck> {
      const token = bearerToken(header)
      if (!token) return { ok: false, status: 401, error: MISSING }
      if (options.readToken && sameSecret(token, options.readToken))
        return need === 'read'
          ? { ok: true, who: 'token' }
          : { ok: false, status: 403, error: READS_ONLY }
      return askSanity(token, client, need)
    },
  }
}
