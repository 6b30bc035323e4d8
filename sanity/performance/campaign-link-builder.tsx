import { CopyIcon } from '@sanity/icons'
import { Box, Button, Card, Flex, Heading, Select, Stack, Text, TextInput } from '@sanity/ui'
import { useEffect, useId, useState } from 'react'

import { campaignLink, CAMPAIGN_CHANNELS, tagValue } from '../../lib/analytics/campaign-link'
import { fetchNamedCampaigns, ReportError, saveNamedCampaign, type Fetch } from './api'

/**
 * Marketing names a campaign once and copies its tagged link (for an ad, a newsletter or a QR
 * code): the visits, contacts and leads it brings then show under that name in the tables above.
 * A saved name is always counted under its own name, however many invented ones came first.
 * Only a role that can write saves one (`canSave`, checked again by the site); anyone copies links.
 */
export function CampaignLinkBuilder({
  path: fixedPath,
  token,
  canSave = false,
  fetchImpl,
}: {
  path?: string
  token?: string
  canSave?: boolean
  fetchImpl?: Fetch
}) {
  const [path, setPath] = useState(fixedPath ?? '/')
  const [saved, setSaved] = useState<string[]>([])
  const [saving, setSaving] = useState(false)
  useEffect(() => {
    if (!token) return
    let live = true
    fetchNamedCampaigns(token, fetchImpl).then(
      (names) => live && setSaved(names),
      () => {
        // The list is a convenience: the builder works without it.
      },
    )
    return () => {
      live = false
    }
  }, [token, fetchImpl])
  const [campaign, setCampaign] = useState('')
  const [channel, setChannel] = useState(0)
  const [copied, setCopied] = useState<string>()
  const ids = { campaign: useId(), path: useId(), channel: useId(), heading: useId() }
  const chosen = CAMPAIGN_CHANNELS[channel]!
  const origin = typeof window === 'undefined' ? 'https://example.com' : window.location.origin
  const link = campaignLink({
    origin,
    path,
    campaign,
    source: chosen.source,
    medium: chosen.medium,
  })

  const save = async () => {
    if (!token || !canSave || !link.ok) return
    setSaving(true)
    try {
      const name = await saveNamedCampaign(campaign, token, fetchImpl)
      setSaved((names) => [name, ...names.filter((other) => other !== name)])
      setCopied(`Campanha “${name}” salva: será sempre contada com esse nome.`)
    } catch (error) {
      setCopied(
        error instanceof ReportError
          ? error.message
          : 'Não foi possível salvar a campanha. Tente de novo.',
      )
    } finally {
      setSaving(false)
    }
  }

  const copy = async () => {
    if (!link.ok) return
    try {
      await navigator.clipboard.writeText(link.url)
      setCopied('Link copiado.')
    } catch {
      setCopied('Não foi possível copiar: selecione o link e copie com Ctrl+C.')
    }
  }

  return (
    <Card padding={4} radius={2} border>
      <Stack space={4}>
        <Heading as="h3" size={1} id={ids.heading}>
          Link de campanha
        </Heading>
        <Text size={1} muted>
          Dê um nome à campanha e copie o link para o anúncio, a newsletter ou o QR code. As
          visitas, os contatos e os pedidos que ele trouxer aparecem com esse nome em “Por
          campanha”.
        </Text>
        <Flex gap={3} wrap="wrap">
          <Stack space={2} flex={1} style={{ minWidth: '12rem' }}>
            <Text as="label" htmlFor={ids.campaign} size={1} weight="medium">
              Nome da campanha
            </Text>
            <TextInput
              id={ids.campaign}
              value={campaign}
              placeholder="black-friday-2026"
              onChange={(event) => {
                setCampaign(event.currentTarget.value)
                setCopied(undefined)
              }}
            />
          </Stack>
          <Stack space={2} flex={1} style={{ minWidth: '12rem' }}>
            <Text as="label" htmlFor={ids.channel} size={1} weight="medium">
              Onde o link vai
            </Text>
            <Select
              id={ids.channel}
              value={String(channel)}
              onChange={(event) => {
                setChannel(Number(event.currentTarget.value))
                setCopied(undefined)
              }}
            >
              {CAMPAIGN_CHANNELS.map((option, index) => (
                <option key={option.source} value={index}>
                  {option.label}
                </option>
              ))}
            </Select>
          </Stack>
          {fixedPath ? null : (
            <Stack space={2} flex={1} style={{ minWidth: '12rem' }}>
              <Text as="label" htmlFor={ids.path} size={1} weight="medium">
                Página que o link abre
              </Text>
              <TextInput
                id={ids.path}
                value={path}
                onChange={(event) => {
                  setPath(event.currentTarget.value)
                  setCopied(undefined)
                }}
              />
            </Stack>
          )}
        </Flex>
        {campaign && tagValue(campaign) !== campaign.trim() ? (
          <Text size={1} muted>
            A campanha será contada como “{tagValue(campaign) || '—'}”.
          </Text>
        ) : null}
        <Card padding={3} radius={2} tone={link.ok ? 'positive' : 'transparent'} border>
          <Flex gap={3} align="center" wrap="wrap">
            <Box flex={1}>
              <Text size={1} style={{ overflowWrap: 'anywhere' }}>
                {link.ok ? link.url : link.problem}
              </Text>
            </Box>
            <Button
              icon={CopyIcon}
              text="Copiar link"
              mode="ghost"
              disabled={!link.ok}
              onClick={copy}
            />
            {token && canSave ? (
              <Button
                text={saving ? 'Salvando…' : 'Salvar campanha'}
                tone="primary"
                disabled={!link.ok || saving}
                onClick={save}
              />
            ) : null}
          </Flex>
        </Card>
        {token && !canSave ? (
          <Text size={1} muted>
            Só quem edita o conteúdo (administrador, editor, developer ou contributor) salva uma
            campanha; o link pode ser copiado mesmo assim.
          </Text>
        ) : null}
        {saved.length > 0 ? (
          <Stack space={2}>
            <Text size={1} weight="medium">
              Campanhas salvas
            </Text>
            <Flex gap={2} wrap="wrap">
              {saved.slice(0, 20).map((name) => (
                <Button
                  key={name}
                  text={name}
                  mode="bleed"
                  fontSize={1}
                  padding={2}
                  aria-label={`Usar a campanha ${name}`}
                  onClick={() => setCampaign(name)}
                />
              ))}
            </Flex>
          </Stack>
        ) : null}
        <Box aria-live="polite">
          {copied ? (
            <Text size={1} muted>
              {copied}
            </Text>
          ) : null}
        </Box>
      </Stack>
    </Card>
  )
}
