import type { ReactNode } from 'react'

import { dataset } from '@/sanity/env'

function Command({ children }: { children: string }) {
  return (
    <pre className="mt-2 overflow-x-auto rounded-md bg-navy-950 px-4 py-3 text-sm text-slate-100">
      <code>{children}</code>
    </pre>
  )
}

function Step({ title, children }: { title: string; children: ReactNode }) {
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="text-base font-semibold text-navy-950">{title}</h2>
      <div className="mt-2 text-sm leading-relaxed text-slate-700">{children}</div>
    </li>
  )
}

/**
 * Shown at /studio while NEXT_PUBLIC_SANITY_PROJECT_ID is unset: the site is running on the
 * bundled dataset and there is no Content Lake for the Studio to edit, so say how to get one.
 */
export function StudioSetup() {
  return (
    <main className="min-h-dvh bg-slate-50 px-4 py-12 sm:px-6">
      <div className="mx-auto max-w-3xl">
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Vigia Studio</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-navy-950">
          O Studio ainda não está conectado a um projeto Sanity
        </h1>
        <p className="mt-4 text-slate-700">
          Nenhum projeto está configurado, então o site está mostrando o conteúdo padrão que vem no
          repositório, em{' '}
          <code className="font-mono text-sm">sanity/dataset/production.ndjson</code>. Tudo
          funciona, mas para editar textos e números por aqui é preciso criar um projeto no Sanity,
          importar esse conteúdo e apontar o site para ele.
        </p>

        <ol className="mt-8 space-y-4">
          <Step title="1. Entre na sua conta Sanity e crie o projeto">
            <p>Na pasta do site (o CLI do Sanity já está instalado com as dependências):</p>
            <Command>{`npx sanity login
npx sanity projects create "Vigia" --dataset ${dataset} --dataset-visibility public`}</Command>
            <p className="mt-2">
              Anote o <strong>project id</strong> que o comando mostra.
            </p>
          </Step>

          <Step title="2. Importe o conteúdo padrão para o dataset">
            <Command>{`npx sanity datasets import sanity/dataset/production.ndjson --dataset ${dataset} --project-id <project-id>`}</Command>
            <p className="mt-2">
              Assim o projeto novo começa com exatamente o que o site mostra hoje.
            </p>
          </Step>

          <Step title="3. Libere o Studio e crie o token de leitura">
            <Command>{`npx sanity cors add http://localhost:3000 --credentials --project-id <project-id>
npx sanity tokens add "Vigia pré-visualização" --role viewer --project-id <project-id>`}</Command>
            <p className="mt-2">
              Repita o <code className="font-mono">cors add</code> com o endereço público do site. O
              token (papel Viewer) é o que o modo rascunho usa para ler rascunhos.
            </p>
          </Step>

          <Step title="4. Configure as variáveis de ambiente">
            <p>
              Em <code className="font-mono">.env.local</code> (ou nas variáveis da hospedagem):
            </p>
            <Command>{`NEXT_PUBLIC_SANITY_PROJECT_ID=<project-id>
NEXT_PUBLIC_SANITY_DATASET=${dataset}
SANITY_API_READ_TOKEN=<token do passo 3>
SANITY_REVALIDATE_SECRET=<um segredo longo, o mesmo do webhook>`}</Command>
            <p className="mt-2">
              As variáveis <code className="font-mono">NEXT_PUBLIC_*</code> entram no código na hora
              do build: gere o site de novo depois de mudá-las.
            </p>
          </Step>

          <Step title="5. Gere o site de novo e abra o Studio">
            <Command>{`npm run build && npm start`}</Command>
            <p className="mt-2">
              Depois crie o webhook de publicação no painel do Sanity (
              <code className="font-mono">npx sanity manage</code>) apontando para{' '}
              <code className="font-mono">/api/revalidate</code>, como explica o arquivo{' '}
              <code className="font-mono">docs/content.md</code>, para que cada publicação chegue ao
              site em segundos.
            </p>
          </Step>
        </ol>
      </div>
    </main>
  )
}
