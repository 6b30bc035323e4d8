import { DownloadIcon } from '@sanity/icons'
import { Box, Button, Card, Flex, Heading, Stack, Text } from '@sanity/ui'
import { useId, useState } from 'react'
import { styled } from 'styled-components'

import { ReportError } from './api'
import { formatCount, formatPercent, formatRate, formatSeconds } from './period'
import {
  MEASURE_SPECS,
  VITAL_SPECS,
  vitalRating,
  type ReportRow,
} from '../../lib/analytics/report-schema'

type Measure = (typeof MEASURE_SPECS)[number]

/** One measure of one row as the table shows it (measures.mjs declares the columns). */
export function formatMeasure(spec: Measure, row: ReportRow): string {
  const value = row[spec.name as keyof ReportRow] as number | null
  switch (spec.kind) {
    case 'ratio':
      return formatRate(row.visitors > 0 ? (value as number) : null)
    case 'seconds':
      return formatSeconds(value)
    case 'percent':
      return formatPercent(value)
    default:
      return formatCount(value ?? 0)
  }
}

type Vital = (typeof VITAL_SPECS)[number]

/**
 * A page's p75 of one web vital with Google's verdict: "2.436 ms · bom", "0,07 · bom"; "—" with
 * no sample (the thresholds: lib/analytics/vitals.mjs).
 */
export function formatVital(spec: Vital, row: ReportRow): string {
  const value = row[spec.field]
  if (value === null || value === undefined) return '—'
  const figure = value.toLocaleString('pt-BR', {
    minimumFractionDigits: spec.decimals,
    maximumFractionDigits: spec.decimals,
  })
  return `${figure}${spec.unit ? ` ${spec.unit}` : ''} · ${vitalRating(spec.name, value)}`
}

/** The figures' table, shared by the report and the experiments section. */
export const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 0.875rem;
  font-variant-numeric: tabular-nums;

  th,
  td {
    padding: 0.5rem 0.75rem;
    border-bottom: 1px solid var(--card-border-color);
    text-align: right;
    white-space: nowrap;
  }
  th:first-child,
  td:first-child {
    text-align: left;
    white-space: normal;
    overflow-wrap: anywhere;
    /* In a document's narrow tab the ten columns scroll sideways (Scroll below) rather than
       squeezing the key to a letter a line. */
    min-width: 9rem;
  }
  thead th {
    color: var(--card-muted-fg-color);
    font-weight: 500;
  }
`

const Scroll = styled.div`
  max-height: 28rem;
  overflow: auto;
`

/**
 * Most visitors first, then most leads, then most downloads (a material's rows have no visitors),
 * then by name, so the table reads the same every time.
 */
export function sortRows(rows: readonly ReportRow[]): ReportRow[] {
  return [...rows].sort(
    (a, b) =>
      b.visitors - a.visitors ||
      b.leads - a.leads ||
      b.downloads - a.downloads ||
      a.key.localeCompare(b.key, 'pt-BR'),
  )
}

export function ReportTable({
  title,
  keyHeading,
  emptyKeyLabel,
  rows,
  measures = MEASURE_SPECS,
  vitals = false,
  order = 'ranking',
  formatKey = (key) => key,
  onDownload,
}: {
  title: string
  keyHeading: string
  /** How a row without a value (no campaign, a direct visit) is named. */
  emptyKeyLabel: string
  rows: readonly ReportRow[]
  /** The columns: every measure, or a grouping's own (measuresOf). */
  measures?: readonly Measure[]
  /** Whether to show the pages' web vitals (p75 of hard loads, by=page) after the measures. */
  vitals?: boolean
  /** Most visitors first, or in key order (days). */
  order?: 'ranking' | 'key'
  formatKey?: (key: string) => string
  onDownload: () => Promise<void>
}) {
  const [downloading, setDownloading] = useState(false)
  const [downloadProblem, setDownloadProblem] = useState<string>()
  const headingId = useId()
  const vitalColumns = vitals ? VITAL_SPECS : []

  const download = async () => {
    setDownloading(true)
    setDownloadProblem(undefined)
    try {
      await onDownload()
    } catch (error) {
      setDownloadProblem(
        error instanceof ReportError
          ? error.message
          : 'Não foi possível baixar o CSV. Tente de novo.',
      )
    } finally {
      setDownloading(false)
    }
  }

  return (
    <Card padding={4} radius={2} border>
      <Stack space={3}>
        <Flex justify="space-between" align="center" gap={3} wrap="wrap">
          <Heading as="h3" size={1} id={headingId}>
            {title}
          </Heading>
          <Button
            icon={DownloadIcon}
            mode="ghost"
            text={downloading ? 'Baixando…' : 'Baixar CSV'}
            aria-label={`Baixar CSV: ${title.toLowerCase()}`}
            disabled={downloading}
            onClick={download}
          />
        </Flex>
        {downloadProblem ? (
          <Card padding={3} radius={2} tone="critical" role="alert">
            <Text size={1}>{downloadProblem}</Text>
          </Card>
        ) : null}
        <Scroll>
          <Table aria-labelledby={headingId}>
            <thead>
              <tr>
                <th scope="col">{keyHeading}</th>
                {measures.map((spec) => (
                  <th scope="col" key={spec.name}>
                    {spec.label}
                  </th>
                ))}
                {vitalColumns.map((spec) => (
                  <th scope="col" key={spec.field}>
                    {spec.label} (p75)
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={measures.length + vitalColumns.length + 1}>
                    <Box paddingY={2}>
                      <Text size={1} muted>
                        Nada registrado neste período.
                      </Text>
                    </Box>
                  </td>
                </tr>
              ) : (
                (order === 'key'
                  ? [...rows].sort((a, b) => a.key.localeCompare(b.key))
                  : sortRows(rows)
                ).map((row) => (
                  <tr key={row.key}>
                    <th scope="row" style={{ fontWeight: 400 }}>
                      {row.key.trim() === '' ? emptyKeyLabel : formatKey(row.key)}
                    </th>
                    {measures.map((spec) => (
                      <td key={spec.name}>{formatMeasure(spec, row)}</td>
                    ))}
                    {vitalColumns.map((spec) => (
                      <td key={spec.field}>{formatVital(spec, row)}</td>
                    ))}
                  </tr>
                ))
              )}
            </tbody>
          </Table>
        </Scroll>
      </Stack>
    </Card>
  )
}
