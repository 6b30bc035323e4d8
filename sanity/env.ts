// Public Sanity settings, shared by the site, the Studio and the CLI. Nothing secret lives here:
// NEXT_PUBLIC_* values are inlined into the browser bundle at build time.
// Kept out of sanity.config.ts on purpose: named exports there make the Sanity CLI extract an
// empty schema.

/** Empty when the site runs on the bundled dataset instead of a Sanity project. */
export const projectId = process.env.NEXT_PUBLIC_SANITY_PROJECT_ID?.trim() ?? ''

export const dataset = process.env.NEXT_PUBLIC_SANITY_DATASET?.trim() || 'production'

// A fixed date pins the Content Lake API behaviour we tested against.
// https://www.sanity.io/docs/api-versioning
export const apiVersion = process.env.NEXT_PUBLIC_SANITY_API_VERSION?.trim() || '2025-09-01'

export const isSanityConfigured = projectId !== ''

if (isSanityConfigured && !/^[a-z0-9-]+$/.test(projectId)) {
  throw new Error(
    `NEXT_PUBLIC_SANITY_PROJECT_ID="${projectId}" is not a Sanity project id (lowercase letters, digits and dashes).`,
  )
}
if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(dataset)) {
  throw new Error(`NEXT_PUBLIC_SANITY_DATASET="${dataset}" is not a valid dataset name.`)
}
