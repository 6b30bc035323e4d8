import { RefreshIcon } from '@sanity/icons'
import { Box, Button, Card, Flex, Heading, Spinner, Stack, Text } from '@sanity/ui'
import { useEffect, useMemo, useState } from 'react'

import { downloadReportCsv, fetchReport, ReportError, type Fetch, type ReportQuery } from './api'
import {
  compare,
  dailySeries,
  describePeriod,
  formatDate,
  presetPeriod,
  previousPeriod,
  saoPauloToday,
  totals,
  type Period,
} from './period'
import { PerformanceChart } from './performance-chart'
import { PeriodPicker, type PeriodChoice } from './period-picker'
import {
  CONVERSION_GROUP_SPECS,
  DIMENSION_SPECS,
  measuresOf,
  type Report,
  type ReportGroup,
  type ReportRow,
} from '../../lib/analytics/report-schema'
import { ExperimentsSection } from './experiments-section'
import { ReportTable } from './report-table'
import { Summary } from './summary'

type Breakdown = Exclude<ReportGroup, 'day'>

type Figures = {
  period: Period
  previous: Period
  days: ReportRow[]
  previousDays: ReportRow[]
  /** One page's row as an entry page (its tab). */
  landing?: ReportRow[]
  breakdowns: Partial<Record<Breakdown, ReportRow[]>>
  /** by=variant's rows with their verdicts, and the experiments (the whole-site tool). */
  variants?: Report['rows']
  experiments?: NonNullable<Report['experiments']>
}

type State =
  | { status: 'loading' }
  | { status: 'error'; error: ReportError }
  | { status: 'ready'; figures: Figures }

// One table per reported dimension, then per grouping of conversions alone (the materials, with
// their own measures only), as measures.mjs declares them (no SQL here: the declaration only).
export const REPORT_TABLES: ReadonlyArray<{
  by: Breakdown
  title: string
  keyHeading: string
  emptyKeyLabel: string
  /** The columns, when not every measure (a grouping of conversions alone). */
  measures?: ReturnType<typeof measuresOf>
}> = [
  ...DIMENSION_SPECS.flatMap((spec) =>
    'report' in spec
      ? [
          {
            by: spec.report,
            title: `Por ${spec.label.toLowerCase()}`,
            keyHeading: 'heading' in spec ? spec.heading : spec.label,
            emptyKeyLabel: spec.none,
          },
        ]
      : [],
  ),
  ...CONVERSION_GROUP_SPECS.map((spec) => ({
    by: spec.report,
    title: spec.title,
    keyHeading: spec.heading,
    emptyKeyLabel: spec.none,
    measures: measuresOf(spec.report),
  })),
]

export type PerformanceDashboardProps = {
  /** The signed-in editor's Sanity token, sent as a Bearer token. */
  token: string
  /** One page's figures (its tab on a campaign page or an article); the whole site without. */
  path?: string
  /** Today in São Paulo; tests fix it. */
  today?: string
  fetchImpl?: Fetch
}

function periodOf(choice: PeriodChoice, today: string): Period {
  return choice.kind === 'preset' ? presetPeriod(choice.days, today) : choice.period
}

/**
 * The Desempenho figures: a period and the one before it, visitors, leads and downloads per day,
 * and for the whole site the tables by page, campaign and source and of the materials. Used by the Studio tool and by the
 * Desempenho tab of each campaign page and article (`path`).
 */
export function PerformanceDashboard({
  token,
  path,
  today: fixedToday,
  fetchImpl,
}: PerformanceDashboardProps) {
  const today = useMemo(() => fixedToday ?? saoPauloToday(), [fixedToday])
  const [choice, setChoice] = useState<PeriodChoice>({ kind: 'preset', days: 30 })
  const [attempt, setAttempt] = useState(0)
  // Each answer is kept with the request it answers: until the current request's answer comes,
  // the figures are loading (no state reset inside the effect).
  const [answer, setAnswer] = useState<{ request: string; state: State }>()
  const period = periodOf(choice, today)
  const { from, to } = period
  const request = JSON.stringify([from, to, path ?? '', token, attempt])
  const state: State = answer?.request === request ? answer.state : { status: 'loading' }

  useEffect(() => {
    const controller = new AbortController()
    const current: Period = { from, to, days: period.days }
    const previous = previousPeriod(current)
    const getReport = (query: ReportQuery) =>
      fetchReport(query, token, fetchImpl, controller.signal)
    const get = (query: ReportQuery) => getReport(query).then((report) => report.rows)
    const settle = (next: State) => {
      if (!controller.signal.aborted) setAnswer({ request, state: next })
    }
    Promise.all([
      get({ ...current, by: 'day', path }),
      get({ ...previous, by: 'day', path }),
      // One page's tab shows its own days and its row as an entry page; the breakdowns belong
      // to the whole-site tool.
      ...(path
        ? [get({ ...current, by: 'landing', path })]
        : REPORT_TABLES.map((table) => getReport({ ...current, by: table.by }))),
    ])
      .then(([days = [], previousDays = [], ...answers]) => {
        const tables = answers.map((answer) => (Array.isArray(answer) ? answer : answer.rows))
        const breakdowns: Figures['breakdowns'] = {}
        if (!path)
          REPORT_TABLES.forEach((table, index) => (breakdowns[table.by] = tables[index] ?? []))
        // The by=variant report also names the experiments and judges each variant.
        const variantReport = answers.find(
          (answer): answer is Report => !Array.isArray(answer) && answer.by === 'variant',
        )
        settle({
          status: 'ready',
          figures: {
            period: current,
            previous,
            days,
            previousDays,
            breakdowns,
            ...(path ? { landing: tables[0] ?? [] } : {}),
            ...(variantReport
              ? { variants: variantReport.rows, experiments: variantReport.experiments ?? [] }
              : {}),
          },
        })
      })
      .catch((error: unknown) => {
        settle({
          status: 'error',
          error:
            error instanceof ReportError
              ? error
              : new ReportError('invalid', 'Algo deu errado ao montar o relatório. Tente de novo.'),
        })
      })
    return () => controller.abort()
  }, [request, from, to, period.days, path, token, fetchImpl])

  return (
    <Stack space={5}>
      <Stack space={3}>
        <PeriodPicker choice={choice} today={today} onChange={setChoice} />
        <Text size={1} muted>
          {describePeriod(period)}, comparado com {describePeriod(previousPeriod(period))}. Dias no
          horário de Brasília.
        </Text>
      </Stack>
      <Content
        state={state}
        path={path}
        token={token}
        fetchImpl={fetchImpl}
        onRetry={() => setAttempt((count) => count + 1)}
      />
    </Stack>
  )
}

function Content({
  state,
  path,
  token,
  fetchImpl,
  onRetry,
}: {
  state: State
  path?: string
  token: string
  fetchImpl?: Fetch
  onRetry: () => void
}) {
  if (state.status === 'loading')
    return (
      <Card padding={5} radius={2} border>
        <Flex align="center" justify="center" gap={3} role="status">
          <Spinner muted />
          <Text muted>Carregando os números…</Text>
        </Flex>
      </Card>
    )

  if (state.status === 'error')
    return (
      <Card padding={4} radius={2} tone="critical" border role="alert">
        <Stack space={4}>
          <Heading as="h3" size={1}>
            {state.error.kind === 'unauthorized' || state.error.kind === 'forbidden'
              ? 'Sem acesso aos números'
              : 'Não foi possível carregar os números'}
          </Heading>
          <Text size={1}>{state.error.message}</Text>
          {state.error.retryable ? (
            <Box>
              <Button icon={RefreshIcon} text="Tentar de novo" tone="critical" onClick={onRetry} />
            </Box>
          ) : null}
        </Stack>
      </Card>
    )

  const { figures } = state
  const current = totals(figures.days)
  const comparison = compare(current, totals(figures.previousDays))
  const nothing =
    current.visits === 0 && current.visitors === 0 && current.leads === 0 && current.downloads === 0

  return (
    <Stack space={5}>
      <Summary comparison={comparison} narrow={Boolean(path)} />
      {figures.experiments ? (
        <ExperimentsSection experiments={figures.experiments} rows={figures.variants ?? []} />
      ) : null}
      {nothing ? (
        <Card padding={4} radius={2} tone="caution" border>
          <Text size={1}>
            {path
              ? `Nenhuma visita nem lead registrado em ${path} neste período.`
              : 'Nenhuma visita nem lead registrado neste período.'}{' '}
            Só contam visitas de navegadores com JavaScript, a partir do dia em que a contagem foi
            ligada no site.
          </Text>
        </Card>
      ) : (
        <>
          <Card padding={4} radius={2} border>
            <PerformanceChart
              period={figures.period}
              points={dailySeries(figures.period, figures.days)}
            />
          </Card>
          {path ? (
            <>
              <ReportTable
                title="Por dia"
                keyHeading="Dia"
                emptyKeyLabel="(sem data)"
                rows={figures.days}
                order="key"
                formatKey={formatDate}
                onDownload={() =>
                  downloadReportCsv(
                    { from: figures.period.from, to: figures.period.to, by: 'day', path },
                    token,
                    fetchImpl,
                  )
                }
              />
              <ReportTable
                title="Como página de entrada"
                keyHeading="Página de entrada"
                emptyKeyLabel="(sem página)"
                rows={figures.landing ?? []}
                onDownload={() =>
                  downloadReportCsv(
                    { from: figures.period.from, to: figures.period.to, by: 'landing', path },
                    token,
                    fetchImpl,
                  )
                }
              />
            </>
          ) : (
            REPORT_TABLES.map((table) => (
              <ReportTable
                key={table.by}
                title={table.title}
                keyHeading={table.keyHeading}
                emptyKeyLabel={table.emptyKeyLabel}
                measures={table.measures}
                vitals={table.by === 'page'}
                rows={figures.breakdowns[table.by] ?? []}
                onDownload={() =>
                  downloadReportCsv(
                    { from: figures.period.from, to: figures.period.to, by: table.by },
                    token,
                    fetchImpl,
                  )
                }
              />
            ))
          )}
        </>
      )}
    </Stack>
  )
}
