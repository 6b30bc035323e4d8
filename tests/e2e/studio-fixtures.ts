import { expect, type Page } from '@playwright/test'

// The Studio in a real browser, signed in: it talks to <project>.api.sanity.io, which this machine
// cannot reach, so that is answered here as Sanity would for a signed-in user whose session token
// is in the Studio's storage (sanity.config.ts signs in by token), with queries sent on to a
// Content Lake double. Shared by the specs that open the Studio (editing, studio-performance, analytics).

export type StudioUser = {
  id: string
  name: string
  email: string
  role: string
  roles: Array<{ name: string; title: string }>
}

/**
 * The browser's launch options for a Studio whose writes and listener reach a Content Lake double
 * (`live` below): testproj.api.sanity.io mapped to the double's HTTPS port. The listener is a
 * stream that a route cannot fulfil, so those requests go over the network, to the double.
 */
export function liveStudioLaunchOptions(base: { args?: string[] }, tlsPort: number) {
  return {
    ...base,
    args: [
      ...(base.args ?? []),
      `--host-resolver-rules=MAP testproj.api.sanity.io 127.0.0.1:${tlsPort}`,
    ],
  }
}

/**
 * Signs `user` in with `token` on the Studio of project testproj, whose Sanity API answers here,
 * its queries from the Content Lake double at `lake` (read with `readToken`). With `live`, the
 * browser launched with liveStudioLaunchOptions, its writes (mutations, document actions) and its
 * listener go to the double itself, which knows `token` as a member's session: publishing,
 * redirects, review links and Presentation's preview secret work as against Sanity.
 */
export async function signedInStudio(
  page: Page,
  {
    lake,
    token,
    user,
    readToken = 'test-read-token',
    live = false,
  }: {
    lake: string
    token: string
    user: StudioUser
    readToken?: string
    live?: boolean
  },
) {
  // The Studio keeps a token login here (loginMethod 'token'), as after a real sign-in.
  await page.addInitScript((token) => {
    window.localStorage.setItem('__studio_auth_token_testproj', JSON.stringify({ token }))
  }, token)
  await page.route('https://testproj.api.sanity.io/**', async (route) => {
    const url = new URL(route.request().url())
    const path = url.pathname
    if (live && /\/data\/(mutate|actions|listen|live\/events)\//.test(path)) return route.continue()
    if (path.includes('/data/query/')) {
      const answer = await fetch(`${lake}${path}${url.search}`, {
        method: route.request().method(),
        body: route.request().postData() ?? undefined,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${readToken}` },
      })
      return route.fulfill({
        status: answer.status,
        body: await answer.text(),
        contentType: 'application/json',
      })
    }
    const doc = /\/data\/doc\/([^/]+)\/(.+)$/.exec(path)
    if (doc) {
      // As the signed-in member sees them: drafts too (raw), so that a page just created or
      // duplicated, a draft only, opens with its fields rather than as an empty form.
      const ids = decodeURIComponent(doc[2]!).split(',')
      const params = new URLSearchParams({
        query: '*[_id in $ids]',
        $ids: JSON.stringify(ids),
        perspective: 'raw',
      })
      const answer = await fetch(`${lake}/v2025-02-19/data/query/${doc[1]}?${params}`, {
        headers: { authorization: `Bearer ${readToken}` },
      })
      const { result } = (await answer.json()) as { result: Array<{ _id: string }> }
      return route.fulfill({
        json: {
          documents: result,
          omitted: ids
            .filter((id) => !result.some((found) => found._id === id))
            .map((id) => ({ id, reason: 'existence' })),
        },
      })
    }
    if (path.includes('/data/listen/'))
      return route.fulfill({
        contentType: 'text/event-stream',
        // A stream cannot stay open through route.fulfill: `retry` keeps the browser from
        // reconnecting (and the document from going back to loading) for the test's length.
        body: 'retry: 600000\nevent: welcome\ndata: {"listenerName":"e2e"}\n\n',
      })
    if (path.endsWith('/users/me')) {
      expect(route.request().headers()['authorization']).toBe(`Bearer ${token}`)
      return route.fulfill({ json: user })
    }
    if (/\/projects\/testproj$/.test(path))
      return route.fulfill({
        json: {
          id: 'testproj',
          displayName: 'Vigia',
          metadata: {},
          features: [],
          members: [{ ...user, isCurrentUser: true, isRobot: false }],
        },
      })
    if (path.endsWith('/datasets'))
      return route.fulfill({ json: [{ name: 'production', aclMode: 'public' }] })
    if (path.endsWith('/acl'))
      return route.fulfill({
        json: [{ filter: '_id in path("**")', permissions: ['read', 'update', 'create'] }],
      })
    if (path.includes('/keyvalue/') || path.endsWith('/features'))
      return route.fulfill({ json: [] })
    if (path.includes('/users/')) return route.fulfill({ json: [user] })
    return route.fulfill({ status: 404, json: { error: 'Not Found' } })
  })
}
