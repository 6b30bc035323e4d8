// The top-level sections that are not the public site: the Studio, its preview and review links.
// The visit beacon does not count them (lib/analytics/beacon.ts), nginx never caches them
// (deploy/nginx.conf), and no slug may take their names (sanity/lib/routed-type-rules.ts APP_ROUTES);
// tests/unit/concepts.test.ts holds those copies to this list. No imports: the beacon's bundle
// loads it.

export const PRIVATE_SECTIONS = ['studio', 'preview', 'revisao'] as const

/** A path in one of them: "/studio", "/preview/p/x", "/revisao/<token>". */
export const PRIVATE_PATH = new RegExp(`^/(${PRIVATE_SECTIONS.join('|')})(/|$)`)
