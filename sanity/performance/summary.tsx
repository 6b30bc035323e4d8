import { Card, Grid, Stack, Text } from '@sanity/ui'

import {
  changeDirection,
  formatChange,
  formatCount,
  formatRate,
  type Change,
  type Comparison,
} from './period'

const TONES = { up: 'positive', down: 'critical', flat: 'default', none: 'default' } as const

function Figure({
  label,
  value,
  previous,
  change,
}: {
  label: string
  value: string
  previous: string
  change: Change
}) {
  const direction = changeDirection(change)
  return (
    <Card padding={4} radius={2} border role="group" aria-label={label}>
      <Stack space={3}>
        <Text size={1} muted>
          {label}
        </Text>
        <Text size={4} weight="semibold">
          {value}
        </Text>
        <Card tone={TONES[direction]} padding={2} radius={2}>
          <Text size={1}>
            {direction === 'none'
              ? `Sem base de comparação (período anterior: ${previous})`
              : `${formatChange(change)} vs. período anterior (${previous})`}
          </Text>
        </Card>
      </Stack>
    </Card>
  )
}

/** The period's totals, each beside its change from the period before. */
export function Summary({
  comparison,
  narrow = false,
}: {
  comparison: Comparison
  /** In a document's tab, beside the desk: two figures a row at most. */
  narrow?: boolean
}) {
  const { current, previous, changes } = comparison
  return (
    <Grid columns={narrow ? [1, 2] : [1, 2, 3, 5]} gap={3}>
      <Figure
        label="Visitas"
        value={formatCount(current.visits)}
        previous={formatCount(previous.visits)}
        change={changes.visits}
      />
      <Figure
        label="Visitantes"
        value={formatCount(current.visitors)}
        previous={formatCount(previous.visitors)}
        change={changes.visitors}
      />
      <Figure
        label="Leads"
        value={formatCount(current.leads)}
        previous={formatCount(previous.leads)}
        change={changes.leads}
      />
      <Figure
        label="Conversão"
        value={formatRate(current.conversion)}
        previous={formatRate(previous.conversion)}
        change={changes.conversion}
      />
      <Figure
        label="Downloads de materiais"
        value={formatCount(current.downloads)}
        previous={formatCount(previous.downloads)}
        change={changes.downloads}
      />
    </Grid>
  )
}
