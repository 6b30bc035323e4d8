import 'server-only'

// Every server-side environment variable is read and checked here, once, at start-up.
// Public Sanity settings live in sanity/env.ts because the Studio (browser code) needs them too.

function optional(name: string): string | undefined {
  const value = process.env[name]?.trim()
  return value ? value : undefined
}

function url(name: string): string | undefined {
  const value = optional(name)
  if (value === undefined) return undefined
  try {
    const parsed = new URL(value)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error()
  } catch {
    throw new Error(`${name}="${value}" is not an http(s) URL.`)
  }
  return value.replace(/\/+$/, '')
}

export const serverEnv = {
  /** Replaces api.sanity.io, for a proxy or a local Content Lake test double. */
  sanityApiHost: url('SANITY_API_HOST'),
}
