import { Icon } from '@/components/icon'
import { presentCards } from '@/components/feature-card'
import type { Card } from '@/components/feature-card'
import { Section, type SectionIntro } from '@/components/ui/section'

type Props = {
  comoFunciona: (NonNullable<SectionIntro> & { steps?: Card[] | null }) | null
  /** The section's anchor: #como-funciona on the home page, the block's own on a campaign page. */
  id?: string
}

export function HowItWorks({ comoFunciona, id = 'como-funciona' }: Props) {
  const steps = presentCards(comoFunciona?.steps)
  return (
    <Section id={id} intro={comoFunciona} className="bg-slate-50">
      {steps.length > 0 ? (
        <ol className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {steps.map((step, index) => (
            <li
              key={step._key}
              className="relative flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
            >
              <div className="flex items-center gap-3">
                <span
                  aria-hidden="true"
                  className="grid size-9 place-items-center rounded-full bg-navy-950 text-sm font-bold text-signal-400"
                >
                  {index + 1}
                </span>
                <Icon name={step.icon} className="size-6 text-brand-700" />
              </div>
              {step.title ? (
                <h3 className="mt-5 text-lg font-semibold text-navy-950">
                  <span className="sr-only">Etapa {index + 1}: </span>
                  {step.title}
                </h3>
              ) : null}
              {step.description ? <p className="mt-2 text-slate-600">{step.description}</p> : null}
            </li>
          ))}
        </ol>
      ) : null}
    </Section>
  )
}
