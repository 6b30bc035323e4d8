import { createHash } from 'node:crypto'

import { describe, expect, it } from 'vitest'

import {
  createReviewToken,
  hashReviewToken,
  isReviewLinkUsable,
  isReviewTokenShape,
  reviewLinkDocument,
} from '@/lib/review-token'

describe('review link tokens', () => {
  it('are 256 random bits in 43 URL-safe characters, never twice the same', () => {
    const tokens = new Set(Array.from({ length: 200 }, createReviewToken))
    expect(tokens.size).toBe(200)
    for (const token of tokens) expect(isReviewTokenShape(token), token).toBe(true)
  })

  it('are stored as their SHA-256 hash, which the Studio and the site compute alike', async () => {
    const token = createReviewToken()
    const hash = await hashReviewToken(token)
    expect(hash).toBe(createHash('sha256').update(token).digest('hex'))
    expect(hash).not.toContain(token)
    // One character changed: another hash, so an altered link finds no document.
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`
    expect(await hashReviewToken(altered)).not.toBe(hash)
  })

  it('refuse anything that is not a token before any query', () => {
    for (const value of ['', 'abc', `${'a'.repeat(42)}=`, `${'a'.repeat(44)}`, '../../etc/passwd'])
      expect(isReviewTokenShape(value), value).toBe(false)
  })

  it('work until they expire or are revoked', () => {
    const now = Date.parse('2026-12-01T12:00:00Z')
    const link = {
      expiresAt: '2026-12-08T12:00:00Z',
      revoked: false,
      createdAt: '2026-12-01T11:00:00Z',
    }
    expect(isReviewLinkUsable(link, now)).toBe(true)
    expect(isReviewLinkUsable(link, Date.parse(link.expiresAt))).toBe(false)
    expect(isReviewLinkUsable({ ...link, revoked: true }, now)).toBe(false)
    expect(isReviewLinkUsable({ expiresAt: null }, now)).toBe(false)
    expect(isReviewLinkUsable(null, now)).toBe(false)
  })

  it('are refused when their lifetime exceeds 30 days from their creation, whatever set it', () => {
    const createdAt = '2026-12-01T12:00:00Z'
    const now = Date.parse('2026-12-02T12:00:00Z')
    const days = (n: number) => new Date(Date.parse(createdAt) + n * 86_400_000).toISOString()
    expect(isReviewLinkUsable({ createdAt, expiresAt: days(30) }, now)).toBe(true)
    // The editor's clock a few minutes ahead of the Content Lake's still counts as 30 days.
    expect(isReviewLinkUsable({ createdAt, expiresAt: days(30.01) }, now)).toBe(true)
    expect(isReviewLinkUsable({ createdAt, expiresAt: days(31) }, now)).toBe(false)
    expect(isReviewLinkUsable({ createdAt, expiresAt: days(36_500) }, now)).toBe(false)
    // No creation time: nothing to count from, refused.
    expect(isReviewLinkUsable({ createdAt: null, expiresAt: days(7) }, now)).toBe(false)
  })
})

describe('the reviewLink document the Studio writes', () => {
  it('is private (review-links.* id), stores only the hash, and expires after the chosen days', () => {
    const now = Date.parse('2026-12-01T12:00:00Z')
    const doc = reviewLinkDocument({
      id: 'abc',
      pageId: 'drafts.campaignPage-feira',
      tokenHash: 'f'.repeat(64),
      days: 7,
      now,
      createdBy: 'Ana',
    })
    expect(doc).toEqual({
      _id: 'review-links.abc',
      _type: 'reviewLink',
      page: { _type: 'reference', _ref: 'campaignPage-feira', _weak: true },
      tokenHash: 'f'.repeat(64),
      expiresAt: '2026-12-08T12:00:00.000Z',
      revoked: false,
      createdBy: 'Ana',
    })
    // As the Content Lake stores it, with its own creation time.
    const stored = { ...doc, createdAt: new Date(now).toISOString() }
    expect(isReviewLinkUsable(stored, now + 7 * 86_400_000 - 1)).toBe(true)
    expect(isReviewLinkUsable(stored, now + 7 * 86_400_000)).toBe(false)
  })
})
