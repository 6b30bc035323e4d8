import type { SanityClient } from '@sanity/client'
import { CheckmarkCircleIcon, StopIcon } from '@sanity/icons'
import { Button, Card, Stack, Text } from '@sanity/ui'
import { useState } from 'react'
import {
  useClient,
  useDocumentPairPermissions,
  useDocumentType,
  useValidationStatus,
  type DocumentActionComponent,
  type DocumentActionProps,
} from 'sanity'

import { CONTROL } from '../../lib/experiments/ids'
import {
  endExperimentMutations,
  experimentActionProblem,
  PAGE_DRAFT_PROBLEM,
  promoteVariantMutations,
  type ExperimentDoc,
  type Mutation,
  type PageDoc,
} from '../lib/experiment-actions'

// The experiment's end, as one Studio action that publishes (docs/experiments.md): "Encerrar
// experimento", or "Tornar padrão" a variant, which also writes its texts into the page. Each
// sends its mutations (sanity/lib/experiment-actions.ts) in one transaction pinned to what it
// read: the publish webhook then updates the page and its variants like any publish. As safe as
// Sanity's own Publish: disabled for a role that may not publish, refused for an invalid
// experiment, and failing (nothing written) when someone changed a document meanwhile.

const API_VERSION = '2025-02-19'

export const CANNOT_WRITE_EXPERIMENT = 'Sua função no projeto não permite editar experimentos.'
export const CANNOT_WRITE_PAGE =
  'Sua função no projeto não permite editar a página deste experimento.'
export const EXPERIMENT_CHANGED =
  'Alguém alterou este experimento enquanto isso: nada foi gravado. Confira as alterações e tente de novo.'
export const PAGE_CHANGED =
  'Alguém alterou a página ou o experimento enquanto isso: nada foi gravado. Tente de novo.'
const FAILED = 'Não foi possível gravar (a conexão caiu?): nada foi alterado. Tente de novo.'
const VALIDATING = 'Aguarde: o experimento ainda está sendo verificado. Tente de novo em instantes.'

/** A precondition failed: a revision moved, or a document that had to be absent exists. */
const isConflict = (error: unknown) => (error as { statusCode?: number })?.statusCode === 409

function send(client: SanityClient, mutations: Mutation[]) {
  return client.mutate(mutations as never, { visibility: 'sync', autoGenerateArrayKeys: false })
}

/** Ends the experiment; the reason in Portuguese when nothing was written. */
export async function endExperiment(
  client: SanityClient,
  published: ExperimentDoc,
  draft: ExperimentDoc | null,
  now: string,
): Promise<string | undefined> {
  try {
    await send(client, endExperimentMutations(published, draft, now))
    return undefined
  } catch (error) {
    return isConflict(error) ? EXPERIMENT_CHANGED : FAILED
  }
}

/** Makes `variant` the page's default and ends the experiment; the reason when nothing was written. */
export async function promoteVariant(
  client: SanityClient,
  {
    experiment,
    experimentDraft,
    variant,
    now,
  }: {
    experiment: ExperimentDoc
    experimentDraft: ExperimentDoc | null
    variant: string
    now: string
  },
): Promise<string | undefined> {
  const read = () =>
    client.fetch<{ page: PageDoc | null; pageDraft: PageDoc | null }>(
      `{"page": *[_id == $id][0], "pageDraft": *[_id == "drafts." + $id][0]}`,
      { id: experiment.page?._ref ?? '' },
      { perspective: 'raw' },
    )
  let state
  try {
    state = await read()
  } catch {
    return FAILED
  }
  const result = promoteVariantMutations({ experiment, experimentDraft, ...state, variant, now })
  if ('problem' in result) return result.problem
  try {
    await send(client, result.mutations)
    return undefined
  } catch (error) {
    if (!isConflict(error)) return FAILED
    // Which precondition failed: a page draft made since the read has its own advice.
    const after = await read().catch(() => undefined)
    return after?.pageDraft ? PAGE_DRAFT_PROBLEM : PAGE_CHANGED
  }
}

/**
 * Whether the signed-in user may publish the document pair `id`, by Sanity's own check:
 * `useDocumentPairPermissions` with 'publish', the hook the built-in Publish action disables
 * itself with. It evaluates the grants of the user's roles on the draft and the published
 * document as they are now ('publish' = update the published one, delete the draft, create the
 * published one from it), which is what these actions write: a viewer gets `granted: false`.
 */
function useMayPublish(id: string, type: string) {
  const [permission, loading] = useDocumentPairPermissions({ id, type, permission: 'publish' })
  return { loading, granted: Boolean(permission?.granted) }
}

/**
 * The experiment as the Studio validates it (the edited draft, else the published document), as
 * the built-in Publish action waits for it: the first error as the refusal, `pending` until the
 * validation is of the revision shown.
 */
function useValidationProblem(props: DocumentActionProps) {
  const edited = props.draft ?? props.published
  const status = useValidationStatus(edited?._id ?? props.id, props.type, true)
  const error = status.validation.find((marker) => marker.level === 'error')
  return {
    pending: status.isValidating || status.revision !== edited?._rev,
    problem: error ? `Corrija o experimento antes: ${error.message}` : undefined,
  }
}

export const EndExperimentAction: DocumentActionComponent = (props) => {
  const client = useClient({ apiVersion: API_VERSION })
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string>()
  const published = props.published as ExperimentDoc | null
  const permission = useMayPublish(props.id, props.type)
  const validation = useValidationProblem(props)
  const blocked =
    experimentActionProblem(published) ??
    (permission.loading || permission.granted ? undefined : CANNOT_WRITE_EXPERIMENT) ??
    validation.problem
  return {
    label: 'Encerrar experimento',
    icon: StopIcon,
    tone: 'caution',
    disabled: Boolean(blocked) || permission.loading || busy,
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
            if (!published || busy) return
            const refusal = blocked ?? (validation.pending ? VALIDATING : undefined)
            if (refusal || permission.loading) return setProblem(refusal ?? VALIDATING)
            setBusy(true)
            const failure = await endExperiment(
              client,
              published,
              props.draft as ExperimentDoc | null,
              new Date().toISOString(),
            )
            setBusy(false)
            if (failure) return setProblem(failure)
            setOpen(false)
            setProblem(undefined)
            props.onComplete()
          },
        }
      : null,
  }
}
EndExperimentAction.action = 'endExperiment' as never

export const PromoteVariantAction: DocumentActionComponent = (props) => {
  const [open, setOpen] = useState(false)
  const published = props.published as ExperimentDoc | null
  const pageId = published?.page?._ref
  // The page's type (a home or a campaign page), which its permissions are evaluated with; without
  // a page the experiment's own pair stands in (the action is refused for that anyway).
  const page = useDocumentType(pageId ?? props.id, pageId ? undefined : props.type)
  const experimentPermission = useMayPublish(props.id, props.type)
  const pagePermission = useMayPublish(
    page.documentType ? (pageId ?? props.id) : props.id,
    page.documentType ?? props.type,
  )
  const validation = useValidationProblem(props)
  const loading = experimentPermission.loading || pagePermission.loading || !page.isLoaded
  const blocked =
    experimentActionProblem(published) ??
    (loading || experimentPermission.granted ? undefined : CANNOT_WRITE_EXPERIMENT) ??
    (loading || pagePermission.granted ? undefined : CANNOT_WRITE_PAGE) ??
    validation.problem
  const close = () => {
    setOpen(false)
    props.onComplete()
  }
  return {
    label: 'Tornar uma versão padrão',
    icon: CheckmarkCircleIcon,
    disabled: Boolean(blocked) || loading,
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
                refusal={blocked ?? (loading || validation.pending ? VALIDATING : undefined)}
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
  refusal,
  onDone,
}: {
  experiment: ExperimentDoc
  experimentDraft: ExperimentDoc | null
  /** Why nothing may be written now (permissions, validation), in Portuguese. */
  refusal?: string
  onDone: () => void
}) {
  const client = useClient({ apiVersion: API_VERSION })
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string>()
  const variants = (experiment.variants ?? []).filter(
    (variant) => variant.key && variant.key !== CONTROL,
  )

  async function promote(variant: string) {
    if (refusal) return setProblem(refusal)
    setBusy(true)
    setProblem(undefined)
    const failure = await promoteVariant(client, {
      experiment,
      experimentDraft,
      variant,
      now: new Date().toISOString(),
    })
    setBusy(false)
    if (failure) setProblem(failure)
    else onDone()
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
