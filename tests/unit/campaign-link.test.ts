import { describe, expect, it } from 'vitest'

import { campaignLink, tagValue } from '@/lib/analytics/campaign-link'

// The Studio's campaign link builder (issue 45): a campaign named once, its tagged link copied.

describe('the campaign link builder', () => {
  it('tags a page of the site with the campaign, its source and medium', () => {
    expect(
      campaignLink({
        origin: 'https://vigia.example',
        path: '/p/onibus-rodoviarios',
        campaign: 'Black Friday 2026!',
        source: 'newsletter',
        medium: 'email',
      }),
    ).toEqual({
      ok: true,
      url: 'https://vigia.example/p/onibus-rodoviarios?utm_source=newsletter&utm_medium=email&utm_campaign=black-friday-2026',
    })
    expect(tagValue('Promoção de Verão')).toBe('promocao-de-verao')
    expect(tagValue('x'.repeat(150))).toHaveLength(100)
  })

  it('explains in Portuguese what is missing, and never links another site', () => {
    const base = { origin: 'https://vigia.example', path: '/', source: 'qrcode', medium: '' }
    expect(campaignLink({ ...base, campaign: '  ' })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('nome à campanha'),
    })
    for (const path of ['//outro.example/x', 'https://outro.example', 'sem-barra'])
      expect(campaignLink({ ...base, path, campaign: 'c' })).toMatchObject({ ok: false })
  })

  it('refuses a path that resolves off the site, such as /\\evil.com, and says why (issue 49)', () => {
    const base = { origin: 'https://vigia.example', source: 'qrcode', medium: '', campaign: 'c' }
    // Each passes a look at its first characters; a URL parser sends each to another host.
    for (const path of ['/\\evil.com', '/\\/evil.com', '/\\\\evil.com/x'])
      expect(campaignLink({ ...base, path }), path).toEqual({
        ok: false,
        problem: expect.stringContaining('fora do site'),
      })
    // A backslash that keeps the link on the site is the site's own business.
    expect(campaignLink({ ...base, path: '/p/a\\b' })).toMatchObject({
      ok: true,
      url: expect.stringMatching(/^https:\/\/vigia\.example\/p\/a\/b\?/),
    })
  })
})
