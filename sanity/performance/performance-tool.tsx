import { Box, Card, Container, Heading, Stack, Text } from '@sanity/ui'
import type { ComponentProps } from 'react'
import { useClient, useCurrentUser } from 'sanity'
import type { UserViewComponent } from 'sanity/structure'

import { CAMPAIGN_NAMING_ROLES } from '../../lib/analytics/campaign-link'
import { apiVersion } from '../env'
import { documentPath as routedDocumentPath } from '../lib/routed-type-rules'
import { CampaignLinkBuilder } from './campaign-link-builder'
import { PerformanceDashboard } from './performance-dashboard'

/**
 * The signed-in editor's Sanity token, which /api/analytics checks with Sanity (users/me). The
 * Studio signs in with `loginMethod: 'token'` (sanity.config.ts) so the token lives in the
 * Studio's client rather than in an HTTP-only cookie of Sanity's domain (docs/performance.md).
 */
function useStudioToken(): string | undefined {
  return useClient({ apiVersion }).config().token
}

/**
 * Whether the signed-in user may save a campaign name: the site accepts it only from a role that
 * can write (lib/analytics/auth.ts); anyone else still copies links.
 */
function useCanNameCampaigns(): boolean {
  const roles = useCurrentUser()?.roles ?? []
  return roles.some((role) => (CAMPAIGN_NAMING_ROLES as readonly string[]).includes(role.name))
}

function NoToken() {
  return (
    <Card padding={4} radius={2} tone="caution" border role="alert">
      <Text size={1}>
        Esta sessão do Studio não tem um token que o site possa conferir. Saia do Studio (menu do
        seu usuário, Sair) e entre de novo para ver os números.
      </Text>
    </Card>
  )
}

/** The Desempenho tool: the whole site's figures. */
export function PerformanceTool() {
  const token = useStudioToken()
  const canSave = useCanNameCampaigns()
  return (
    <Box paddingX={[3, 4, 5]} paddingY={[4, 5]} style={{ overflowY: 'auto', height: '100%' }}>
      <Container width={4}>
        <Stack space={5}>
          <Stack space={3}>
            <Heading as="h1" size={3}>
              Desempenho do site
            </Heading>
            <Text size={1} muted>
              Visitas contadas pelo próprio site, sem cookies, os pedidos de demonstração (leads),
              os downloads de materiais, os toques em WhatsApp, telefone e e-mail e o tempo de
              leitura de cada página, página de entrada, campanha e origem. Conversão = leads ÷
              visitantes; os downloads de cada material estão em Materiais.
            </Text>
          </Stack>
          {token ? <PerformanceDashboard token={token} /> : <NoToken />}
          <CampaignLinkBuilder token={token} canSave={canSave} />
        </Stack>
      </Container>
    </Box>
  )
}

type Slugged = { slug?: { current?: string } }

/** The public path whose figures a document's tab shows: its published address. */
export function documentPath(type: string, document: Slugged | null | undefined) {
  return routedDocumentPath(type, document?.slug?.current)
}

/** The Desempenho tab of a routed type's document: that page's figures. */
export function PerformanceView({ document, schemaType }: ComponentProps<UserViewComponent>) {
  const token = useStudioToken()
  const canSave = useCanNameCampaigns()
  const published = documentPath(schemaType.name, document.published as Slugged | null)
  const editing = documentPath(schemaType.name, document.displayed as Slugged)
  return (
    <Box padding={4}>
      <Stack space={5}>
        {published ? (
          <Stack space={3}>
            <Heading as="h2" size={2}>
              Desempenho de {published}
            </Heading>
            {editing && editing !== published ? (
              <Text size={1} muted>
                Os números são do endereço publicado, {published}. O rascunho muda o endereço para{' '}
                {editing}: depois de publicar, as visitas passam a contar lá (e o redirecionamento
                do endereço antigo leva quem chegar por ele).
              </Text>
            ) : null}
          </Stack>
        ) : null}
        {!published ? (
          <Card padding={4} radius={2} tone="caution" border>
            <Text size={1}>
              Esta página ainda não foi publicada: ainda não há visitas para mostrar.
            </Text>
          </Card>
        ) : token ? (
          <PerformanceDashboard token={token} path={published} />
        ) : (
          <NoToken />
        )}
        {published ? (
          <CampaignLinkBuilder path={published} token={token} canSave={canSave} />
        ) : null}
      </Stack>
    </Box>
  )
}
