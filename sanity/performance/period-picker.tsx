import { Button, Card, Flex, Stack, Text, TextInput } from '@sanity/ui'
import { useId, useState, type FormEvent } from 'react'

import { customPeriod, PRESET_DAYS, type Period } from './period'

export type PeriodChoice = { kind: 'preset'; days: number } | { kind: 'custom'; period: Period }

/** 7, 30 or 90 days ending today, or two dates typed by the editor (checked before use). */
export function PeriodPicker({
  choice,
  today,
  onChange,
}: {
  choice: PeriodChoice
  today: string
  onChange: (choice: PeriodChoice) => void
}) {
  const [customOpen, setCustomOpen] = useState(choice.kind === 'custom')
  const [from, setFrom] = useState(choice.kind === 'custom' ? choice.period.from : '')
  const [to, setTo] = useState(choice.kind === 'custom' ? choice.period.to : today)
  const [problem, setProblem] = useState<string>()
  const fromId = useId()
  const toId = useId()
  const problemId = useId()

  const apply = (event: FormEvent) => {
    event.preventDefault()
    const result = customPeriod(from, to, today)
    if ('problem' in result) {
      setProblem(result.problem)
      return
    }
    setProblem(undefined)
    onChange({ kind: 'custom', period: result.period })
  }

  return (
    <Stack space={3}>
      <Flex gap={2} wrap="wrap" role="group" aria-label="Período">
        {PRESET_DAYS.map((days) => {
          const selected = choice.kind === 'preset' && choice.days === days && !customOpen
          return (
            <Button
              key={days}
              text={`${days} dias`}
              mode={selected ? 'default' : 'ghost'}
              tone={selected ? 'primary' : 'default'}
              aria-pressed={selected}
              onClick={() => {
                setCustomOpen(false)
                setProblem(undefined)
                onChange({ kind: 'preset', days })
              }}
            />
          )
        })}
        <Button
          text="Personalizado"
          mode={customOpen ? 'default' : 'ghost'}
          tone={customOpen ? 'primary' : 'default'}
          aria-pressed={customOpen}
          aria-expanded={customOpen}
          onClick={() => setCustomOpen(true)}
        />
      </Flex>
      {customOpen ? (
        <form onSubmit={apply} noValidate aria-label="Período personalizado">
          <Flex gap={3} wrap="wrap" align="flex-end">
            <Stack space={2}>
              <Text as="label" htmlFor={fromId} size={1} weight="medium">
                De
              </Text>
              <TextInput
                id={fromId}
                type="date"
                value={from}
                max={today}
                aria-describedby={problem ? problemId : undefined}
                aria-invalid={problem ? true : undefined}
                onChange={(event) => setFrom(event.currentTarget.value)}
              />
            </Stack>
            <Stack space={2}>
              <Text as="label" htmlFor={toId} size={1} weight="medium">
                Até
              </Text>
              <TextInput
                id={toId}
                type="date"
                value={to}
                max={today}
                aria-describedby={problem ? problemId : undefined}
                aria-invalid={problem ? true : undefined}
                onChange={(event) => setTo(event.currentTarget.value)}
              />
            </Stack>
            <Button type="submit" text="Aplicar" tone="primary" />
          </Flex>
          {problem ? (
            <Card marginTop={3} padding={3} radius={2} tone="critical" role="alert">
              <Text id={problemId} size={1}>
                {problem}
              </Text>
            </Card>
          ) : null}
        </form>
      ) : null}
    </Stack>
  )
}
