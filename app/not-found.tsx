import type { Metadata } from 'next'

import { ButtonLink } from '@/components/ui/button'

import { NotFoundLogger } from './not-found-logger'

export const metadata: Metadata = {
  title: 'Página não encontrada',
  robots: { index: false },
}

export default function NotFound() {
  return (
    <main className="grid min-h-dvh place-items-center bg-slate-50 px-4 text-center">
      <NotFoundLogger />
      <div>
        <h1 className="text-7xl font-extrabold text-navy-950">404</h1>
        <p className="mt-4 text-xl text-slate-700">Oops! Page not found</p>
        <ButtonLink href="/" className="mt-8">
          Voltar para o início
        </ButtonLink>
      </div>
    </main>
  )
}
