import { LinkIcon } from '@sanity/icons'
import { Box, Button, Card, Flex, Select, Stack, Text, TextInput } from '@sanity/ui'
import { useCallback, useEffect, useState } from 'react'
import { useClient, useCurrentUser, type DocumentActionComponent } from 'sanity'

import {
  createReviewToken,
  hashReviewToken,
  REVIEW_LINK_DAY_CHOICES,
  REVIEW_LINK_DEFAULT_DAYS,
  REVIEW_PATH_PREFIX,
  reviewLinkDocument,
} from '../../lib/review-token'
import { siteDateTime } from '../../lib/site-time.mjs'
import { variantId } from '../../lib/experiments/ids'
import { PREVIEW_VARIANT_PARAM } from '../../lib/experiments/variants'

type ExistingLink = {
  _id: string
  expiresAt: string
  revoked?: boolean
  createdBy?: string
  /** Judged when the list is read. */
  expired?: boolean
}

/** A page's experiment variants (on any of its blocks, draft first): one review link each. */
export const REVIEW_VARIANTS_QUERY = `coalesce(*[_id == "drafts." + $id][0], *[_id == $id][0])
  .blocks[defined(experimentVariants)].experimentVariants[]{
    variant, "experiment": experiment->{"key": key.current, variants[]{key, label}}
  }`

type ReviewVariant = {
  variant?: string
  experiment?: { key?: string; variants?: { key?: string; label?: string }[] } | null
}

/** The variant links beside a review link: `?variante=<experiment>/<variant>`, with their labels. */
export function variantLinks(url: string, variants: ReviewVariant[] | null) {
  const links = (variants ?? []).flatMap(({ variant, experiment }) =>
    variant && experiment?.key
      ? [
          {
            label: experiment.variants?.find((entry) => entry.key === variant)?.label ?? variant,
            href: `${url}?${PREVIEW_VARIANT_PARAM}=${variantId(experiment.key, variant)}`,
          },
        ]
      : [],
  )
  // A variant of two blocks is one link.
  return links.filter((link, index) => links.findIndex(({ href }) => href === link.href) === index)
}

/**
 * "Criar link de revisão" on a campaign page or an article: a link to its draft for someone without
 * a Studio login, valid for the days the editor picks (7 by default), listed with the page's other
 * links so any of them can be revoked. Written with the editor's own credentials; the token is
 * shown once and only its hash is stored (lib/review-token.ts, docs/campaigns.md).
 */
export const ReviewLinkAction: DocumentActionComponent = (props) => {
  const [open, setOpen] = useState(false)
  return {
    label: 'Criar link de revisão',
    icon: LinkIcon,
    onHandle: () => setOpen(true),
    dialog: open
      ? {
          type: 'dialog',
          header: 'Link de revisão',
          onClose: () => {
            setOpen(false)
            props.onComplete()
          },
          content: (
            <ReviewLinkDialog
              pageId={props.id}
              noun={props.type === 'article' ? 'deste artigo' : 'desta página'}
            />
          ),
        }
      : null,
  }
}
ReviewLinkAction.action = 'reviewLink' as never

function ReviewLinkDialog({ pageId, noun }: { pageId: string; noun: string }) {
  const client = useClient({ apiVersion: '2025-02-19' })
  const user = useCurrentUser()
  const [days, setDays] = useState<number>(REVIEW_LINK_DEFAULT_DAYS)
  const [url, setUrl] = useState<string>()
  const [variants, setVariants] = useState<{ label: string; href: string }[]>([])
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string>()
  const [links, setLinks] = useState<ExistingLink[]>([])

  const fetchLinks = useCallback(async () => {
    const found = await client.fetch<ExistingLink[]>(
      `*[_type == "reviewLink" && page._ref == $pageId] | order(expiresAt desc){_id, expiresAt, revoked, createdBy}`,
      { pageId },
      { perspective: 'raw' },
    )
    const now = Date.now()
    return found.map((link) => ({ ...link, expired: Date.parse(link.expiresAt) <= now }))
  }, [client, pageId])

  const load = useCallback(async () => setLinks(await fetchLinks()), [fetchLinks])

  useEffect(() => {
    let current = true
    fetchLinks().then(
      (found) => current && setLinks(found),
      () => current && setProblem(`Não foi possível carregar os links ${noun}.`),
    )
    return () => {
      current = false
    }
  }, [fetchLinks, noun])

  async function create() {
    setBusy(true)
    setProblem(undefined)
    try {
      const token = createReviewToken()
      await client.create(
        reviewLinkDocument({
          id: crypto.randomUUID(),
          pageId,
          tokenHash: await hashReviewToken(token),
          days,
          createdBy: user?.name ?? user?.email ?? '',
        }),
      )
      const link = `${window.location.origin}${REVIEW_PATH_PREFIX}/${token}`
      setUrl(link)
      setVariants(
        variantLinks(
          link,
          await client.fetch<ReviewVariant[] | null>(
            REVIEW_VARIANTS_QUERY,
            { id: pageId },
            { perspective: 'raw' },
          ),
        ),
      )
      await load()
    } catch {
      setProblem('Não foi possível criar o link. Tente de novo.')
    } finally {
      setBusy(false)
    }
  }

  async function revoke(id: string) {
    try {
      await client.patch(id).set({ revoked: true }).commit()
      await load()
    } catch {
      setProblem('Não foi possível revogar o link. Tente de novo.')
    }
  }

  return (
    <Stack gap={4} padding={2}>
      <Text size={1}>
        Quem abrir o link vê o rascunho {noun}, só para leitura, sem precisar de login. Nenhum outro
        rascunho fica acessível.
      </Text>
      <Flex gap={2} align="flex-end">
        <Stack gap={2} flex={1}>
          <Text size={1} weight="semibold">
            Válido por
          </Text>
          <Select
            value={String(days)}
            onChange={(event) => setDays(Number(event.currentTarget.value))}
          >
            {REVIEW_LINK_DAY_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {choice === 1 ? '1 dia' : `${choice} dias`}
              </option>
            ))}
          </Select>
        </Stack>
        <Button text="Criar link" tone="primary" onClick={create} disabled={busy} />
      </Flex>
      {url ? (
        <Card padding={3} radius={2} tone="positive" border>
          <Stack gap={3}>
            <Text size={1} weight="semibold">
              Copie o link agora: por segurança, ele não pode ser mostrado de novo.
            </Text>
            <TextInput
              readOnly
              aria-label="Link de revisão"
              value={url}
              onFocus={(event) => event.currentTarget.select()}
            />
            {variants.length > 0 ? (
              <Text size={1}>
                O link mostra a versão original; para ver cada versão do experimento nesta página:
              </Text>
            ) : null}
            {variants.map((entry) => (
              <Stack key={entry.href} gap={2}>
                <Text size={1} weight="semibold">
                  {entry.label}
                </Text>
                <TextInput
                  readOnly
                  aria-label={`Link de revisão: ${entry.label}`}
                  value={entry.href}
                  onFocus={(event) => event.currentTarget.select()}
                />
              </Stack>
            ))}
          </Stack>
        </Card>
      ) : null}
      {problem ? (
        <Card padding={3} radius={2} tone="critical" border>
          <Text size={1}>{problem}</Text>
        </Card>
      ) : null}
      {links.length > 0 ? (
        <Stack gap={2}>
          <Text size={1} weight="semibold">
            Links {noun}
          </Text>
          {links.map((link) => {
            const expired = link.expired
            const state = link.revoked
              ? 'revogado'
              : expired
                ? 'expirado'
                : `vale até ${siteDateTime(Date.parse(link.expiresAt))}`
            return (
              <Flex key={link._id} align="center" gap={2}>
                <Box flex={1}>
                  <Text size={1}>
                    {link.createdBy ? `${link.createdBy} · ` : ''}
                    {state}
                  </Text>
                </Box>
                {!link.revoked && !expired ? (
                  <Button
                    text="Revogar"
                    mode="ghost"
                    tone="critical"
                    onClick={() => revoke(link._id)}
                  />
                ) : null}
              </Flex>
            )
          })}
        </Stack>
      ) : null}
    </Stack>
  )
}
