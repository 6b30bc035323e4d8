import type { Metadata } from 'next'

import { HomePageView } from '@/components/home-page-view'
import { getPageExperiment } from '@/lib/content'
import { variantMetadata } from '@/lib/experiments/metadata'

// Prerendered at build time; regenerated when a webhook revalidates a content tag, or at the
// latest after an hour (REVALIDATE_SECONDS in lib/content/tags.ts; Next needs a literal here).
// With an experiment running here this is its default ("controle"); proxy.ts rewrites the
// visitors of the other variants to theirs (app/variante, docs/experiments.md).
export const revalidate = 3600

export async function generateMetadata(): Promise<Metadata> {
  return variantMetadata(await getPageExperiment('/'))
}

export default function HomePage() {
  return <HomePageView />
}
