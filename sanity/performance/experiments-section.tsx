import { Badge, Card, Flex, Heading, Stack, Text } from '@sanity/ui'
import { useId } from 'react'

import { formatCount, formatRate } from './period'
import { Table } from './report-table'
import type { Report } from '../../lib/analytics/report-schema'
import { CONTROL } from '../../lib/experiments/ids'
import type { ExperimentSummary } from '../../lib/experiments/report'
import {
  MIN_CONVERSIONS_PER_VARIANT,
  MIN_VISITORS_PER_VARIANT,
} from '../../lib/experiments/verdict'

// The experiments in the Desempenho tool (docs/experiments.md, "The verdict"; docs/editors.md): each
// running or ended experiment, per variant its visitors, leads, conversion and contacts in the
// chosen period, and the chance that it beats the default with the expected loss, as
// GET /api/analytics?by=variant computes them. Below the minimum it says there is not enough data
// instead of naming a winner.

type VariantRow = Report['rows'][number]

/** Said for a variant without a verdict and no reason from the site (no row in the period). */
export const NOT_ENOUGH_DATA =
  `Ainda não há dados suficientes: cada versão precisa de ao menos ` +
  `${MIN_VISITORS_PER_VARIANT} visitantes e ${MIN_CONVERSIONS_PER_VARIANT} conversões.`

const STATUS: Record<ExperimentSummary['status'], { text: string; tone: 'positive' | 'default' }> =
  {
    running: { text: 'Em andamento', tone: 'positive' },
    ended: { text: 'Encerrado', tone: 'default' },
    scheduled: { text: 'Agendado', tone: 'default' },
  }

const GOAL: Record<ExperimentSummary['goal'], string> = {
  leads: 'leads (pedidos de demonstração)',
  contacts: 'cliques em WhatsApp, telefone ou e-mail',
}

/** 0.9731 → "97%"; a chance near certainty is not rounded up to a promise. */
export function formatChance(value: number): string {
  const percent = value * 100
  if (percent > 99 && percent < 100) return '> 99%'
  if (percent < 1 && percent > 0) return '< 1%'
  return `${Math.round(percent)}%`
}

/** The expected loss in conversion points: 0.0012 → "0,12 p.p.". */
export function formatLoss(value: number): string {
  return `${(value * 100).toLocaleString('pt-BR', { maximumFractionDigits: 2 })} p.p.`
}

const contacts = (row: VariantRow | undefined) => (row ? row.whatsapp + row.phone + row.email : 0)

function ExperimentCard({
  experiment,
  rows,
}: {
  experiment: ExperimentSummary
  rows: ReadonlyMap<string, VariantRow>
}) {
  const headingId = useId()
  const status = STATUS[experiment.status]
  return (
    <Card padding={4} radius={2} border>
      <Stack space={4}>
        <Flex align="center" gap={3} wrap="wrap">
          <Heading as="h4" size={1} id={headingId}>
            {experiment.title}
          </Heading>
          <Badge tone={status.tone}>{status.text}</Badge>
        </Flex>
        <Text size={1} muted>
          Página {experiment.pagePath} · meta: {GOAL[experiment.goal]}
        </Text>
        <div style={{ overflowX: 'auto' }}>
          <Table aria-labelledby={headingId}>
            <thead>
              <tr>
                <th scope="col">Versão</th>
                <th scope="col">Visitantes</th>
                <th scope="col">Leads</th>
                <th scope="col">Conversão</th>
                <th scope="col">Contatos</th>
                <th scope="col">Chance de superar o padrão</th>
                <th scope="col">Perda esperada</th>
              </tr>
            </thead>
            <tbody>
              {experiment.variants.map((variant) => {
                const row = rows.get(`${experiment.key}/${variant.key}`)
                const isControl = variant.key === CONTROL
                return (
                  <tr key={variant.key}>
                    <th scope="row">
                      {variant.label}
                      {isControl ? ' (padrão)' : ''}
                    </th>
                    <td>{formatCount(row?.visitors ?? 0)}</td>
                    <td>{formatCount(row?.leads ?? 0)}</td>
                    <td>{formatRate(row && row.visitors > 0 ? row.conversion : null)}</td>
                    <td>{formatCount(contacts(row))}</td>
                    {isControl ? (
                      <td colSpan={2}>—</td>
                    ) : row?.chanceToBeatControl != null && row.expectedLoss != null ? (
                      <>
                        <td>{formatChance(row.chanceToBeatControl)}</td>
                        <td>{formatLoss(row.expectedLoss)}</td>
                      </>
                    ) : (
                      <td colSpan={2} style={{ textAlign: 'left', whiteSpace: 'normal' }}>
                        {row?.verdictMessage ?? NOT_ENOUGH_DATA}
                      </td>
                    )}
                  </tr>
                )
              })}
            </tbody>
          </Table>
        </div>
      </Stack>
    </Card>
  )
}

/** Every running and ended experiment (scheduled ones have nothing to show yet), running first. */
export function ExperimentsSection({
  experiments,
  rows,
}: {
  experiments: readonly ExperimentSummary[]
  rows: readonly VariantRow[]
}) {
  const shown = experiments
    .filter((experiment) => experiment.status !== 'scheduled')
    .sort((a, b) => Number(b.status === 'running') - Number(a.status === 'running'))
  if (shown.length === 0) return null
  const byKey = new Map(rows.map((row) => [row.key, row]))
  return (
    <Stack space={3}>
      <Heading as="h3" size={1}>
        Experimentos
      </Heading>
      <Text size={1} muted>
        Números do período escolhido. A chance de superar o padrão compara cada versão com a versão
        padrão na meta do experimento; só decida com ela alta (95% ou mais) e a perda esperada
        pequena, depois de alguns dias.
      </Text>
      {shown.map((experiment) => (
        <ExperimentCard key={experiment.key} experiment={experiment} rows={byKey} />
      ))}
    </Stack>
  )
}
