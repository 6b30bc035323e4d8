import { RoiCalculatorIsland } from '@/components/roi-calculator-island'
import type { RoiCalculatorContent } from '@/lib/content'
import { assumptionsFrom } from '@/lib/roi/content'
import { formatCount, formatWholeReais } from '@/lib/roi/format'
import type { CalculatorErrors, CalculatorValues } from '@/lib/roi/input'
import { cn } from '@/lib/utils'

type Props = {
  calculator: RoiCalculatorContent | null | undefined
  /** What the form opens with; the reference fleet by default (its figures are the claims). */
  values?: CalculatorValues
  errors?: CalculatorErrors
  /** The title's level: h4 under the home page's ROI block title, h3 in a block; null: the page's h1 says it. */
  headingLevel?: 'h2' | 'h3' | 'h4' | null
  className?: string
}

/**
 * The savings calculator with what the server knows: its texts and assumptions (Studio: Premissas
 * da calculadora de economia), the form (an island) and "Como calculamos", which lists every
 * assumption with its source or note. Nothing when an assumption is missing: an estimate built on
 * a hole would not be honest.
 */
export function RoiCalculatorPanel({
  calculator,
  values,
  errors,
  headingLevel = 'h3',
  className,
}: Props) {
  const Heading = headingLevel
  const assumptions = assumptionsFrom(calculator)
  if (!calculator || !assumptions) return null
  const fleet = calculator.referenceFleet ?? 50
  const perVehicle = formatCount(assumptions.incidentsPerVehicle)
  const listed = [
    [
      'Investimento por veículo, pago no início',
      formatWholeReais(assumptions.costPerVehicle),
      calculator.costPerVehicle?.note,
    ],
    ['Sinistros por veículo por ano', perVehicle, calculator.incidentsPerVehicle?.note],
    [
      'Custo médio de um sinistro',
      formatWholeReais(assumptions.incidentCost),
      calculator.incidentCost?.note,
    ],
    [
      'Sinistros evitados',
      `${formatCount(assumptions.avoidedPercent)}%`,
      calculator.avoidedPercent?.note,
    ],
  ] as const
  return (
    <div className={cn('rounded-2xl bg-white p-5 text-slate-800 shadow-sm sm:p-6', className)}>
      {calculator.title && Heading ? (
        <Heading className="text-xl font-semibold text-navy-950">{calculator.title}</Heading>
      ) : null}
      {calculator.intro ? (
        <p className={cn('text-slate-600', Heading && 'mt-2')}>{calculator.intro}</p>
      ) : null}
      <RoiCalculatorIsland
        assumptions={assumptions}
        values={values ?? { frota: String(fleet), sinistros: '', custo: '' }}
        errors={errors}
        hints={{
          sinistros: `Em branco, estimamos ${perVehicle} por veículo por ano.`,
          custo: `Em branco, usamos ${formatWholeReais(assumptions.incidentCost)}.`,
        }}
      />
      {calculator.disclaimer ? (
        <p className="mt-4 text-sm text-slate-600">{calculator.disclaimer}</p>
      ) : null}
      <details className="mt-4 border-t border-slate-200 pt-2">
        <summary className="flex min-h-11 cursor-pointer items-center font-semibold text-brand-700">
          Como calculamos
        </summary>
        <p className="mt-2 text-sm text-slate-700">
          Economia por ano = sinistros por ano × custo médio de um sinistro × sinistros evitados.
          Sem os seus sinistros, estimamos frota × sinistros por veículo. Investimento = frota ×
          investimento por veículo, pago no início. Payback = investimento ÷ economia por mês. ROI
          em 2 anos = (2 × economia por ano − investimento) ÷ investimento.
        </p>
        <ul className="mt-3 list-disc space-y-2 pl-5 text-sm text-slate-700">
          {listed.map(([label, value, note]) => (
            <li key={label}>{`${label}: ${value}. ${note ?? ''}`}</li>
          ))}
        </ul>
      </details>
    </div>
  )
}
