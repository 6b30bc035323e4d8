import { CheckmarkCircleIcon, StopIcon } from '@sanity/icons'
import { Button, Card, Stack, Text } from '@sanity/ui'
import { useState } from 'react'
import { useClient, type DocumentActionComponent } from 'sanity'

import { CONTROL } from '../../lib/experiments/assign'
import {
  endExperimentMutations,
  experimentActionProblem,
  promoteVariantMutations,
  type ExperimentDoc,
  type Mutation,
  type PageDoc,
} from '../lib/experiment-actions'

// The experiment's end, as one Studio action that publishes (docs/experiments.md): "Encerrar
// experimento", or "Tornar padrão" a variant, which also writes its texts into the page. Each
// sends its mutations (sanity/lib/experiment-actions.ts) in one transaction: the publish webhook
// then updates the page and its variants like any publish.

const API_VERSION = '2025-02-19'

function useSend() {
  const client = useClient({ apiVersion: API_VERSION })
  return {
    client,
    send: (mutations: Mutation[]) =>
      client.mutate(mutations as never, { visibility: 'sync', autoGenerateArrayKeys: false }),
  }
}

export const EndExperimentAction: DocumentActionComponent = (props) => {
  const { send } = useSend()
  const [open, setOpen] = useState(false)
  const [problem, setProblem] = useState<string>()
  const published = props.published as ExperimentDoc | null
  const blocked = experimentActionProblem(published)
  return {
    label: 'Encerrar experimento',
    icon: StopIcon,
    tone: 'caution',
    disabled: Boolean(blocked),
    title: blocked,
    onHandle: () => setOpen(true),
    dialog: open
      ? {
          type: 'confirm',
          tone: 'caution',
          message: problem
            ? problem
            : 'Encerrar agora? Todos os visitantes passam a ver a página original (controle) e os números do experimento continuam em Desempenho. As alterações não publicadas deste experimento são publicadas junto.',
          onCancel: () => {
            setOpen(false)
            setProblem(undefined)
            props.onComplete()
          },
          onConfirm: async () => {
            if (!published) return
            try {
              await send(
                endExperimentMutations(
                  published,
                  props.draft as ExperimentDoc | null,
                  new Date().toISOString(),
                ),
              )
              setOpen(false)
              props.onComplete()
            } catch {
              setProblem(
                'Não foi possível encerrar o experimento (alguém o alterou ou a conexão caiu). Feche e tente de novo.',
              )
            }
          },
        }
      : null,
  }
}
EndExperimentAction.action = 'endExperiment' as never

export const PromoteVariantAction: DocumentActionComponent = (props) => {
  const [open, setOpen] = useState(false)
  const published = props.published as ExperimentDoc | null
  const blocked = experimentActionProblem(published)
  const close = () => {
    setOpen(false)
    props.onComplete()
  }
  return {
    label: 'Tornar uma versão padrão',
    icon: CheckmarkCircleIcon,
    disabled: Boolean(blocked),
    title: blocked,
    onHandle: () => setOpen(true),
    dialog:
      open && published
        ? {
            type: 'dialog',
            header: 'Tornar uma versão padrão',
            onClose: close,
            content: (
              <PromoteDialog
                experiment={published}
                experimentDraft={props.draft as ExperimentDoc | null}
                onDone={close}
              />
            ),
          }
        : null,
  }
}
PromoteVariantAction.action = 'promoteVariant' as never

function PromoteDialog({
  experiment,
  experimentDraft,
  onDone,
}: {
  experiment: ExperimentDoc
  experimentDraft: ExperimentDoc | null
  onDone: () => void
}) {
  const { client, send } = useSend()
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string>()
  const variants = (experiment.variants ?? []).filter(
    (variant) => variant.key && variant.key !== CONTROL,
  )

  async function promote(variant: string) {
    setBusy(true)
    setProblem(undefined)
    try {
      const pageId = experiment.page?._ref ?? ''
      const { page, pageDraft } = await client.fetch<{
        page: PageDoc | null
        pageDraft: PageDoc | null
      }>(
        `{"page": *[_id == $id][0], "pageDraft": *[_id == "drafts." + $id][0]}`,
        { id: pageId },
        { perspective: 'raw' },
      )
      const result = promoteVariantMutations({
        experiment,
        experimentDraft,
        page,
        pageDraft,
        variant,
        now: new Date().toISOString(),
      })
      if ('problem' in result) {
        setProblem(result.problem)
        return
      }
      await send(result.mutations)
      onDone()
    } catch {
      setProblem(
        'Não foi possível publicar (alguém alterou a página ou o experimento, ou a conexão caiu). Tente de novo.',
      )
    } finally {
      setBusy(false)
    }
  }

  return (
    <Stack gap={4} padding={2}>
      <Text size={1}>
        Os textos e a imagem da versão escolhida passam a ser os da página, para todos os
        visitantes, e o experimento é encerrado. Tudo é publicado de uma vez.
      </Text>
      {variants.map((variant) => (
        <Button
          key={variant.key}
          text={`Tornar padrão: ${variant.label || variant.key}`}
          tone="primary"
          disabled={busy}
          onClick={() => promote(variant.key!)}
        />
      ))}
      {problem ? (
        <Card padding={3} radius={2} tone="critical" border role="alert">
          <Text size={1}>{problem}</Text>
        </Card>
      ) : null}
    </Stack>
  )
}
