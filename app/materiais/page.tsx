import type { Metadata } from 'next'

import { ArticlesShell } from '@/components/articles/articles-shell'
import { MaterialCard } from '@/components/materials/material-card'
import { MATERIALS_TITLE } from '@/components/materials/material-page-view'
import { getMaterialList, getSiteSettings } from '@/lib/content'
import { pageMetadata, withBrand } from '@/lib/site-metadata'
import { MATERIALS_PREFIX } from '@/sanity/lib/paths'

// The published materials inside their window (issue 65), regenerated when one is published (the
// material type's tag) and at the next start or end of a window.
export const revalidate = 3600

const DESCRIPTION =
  'E-books e checklists gratuitos sobre segurança de frotas, fadiga e distração ao volante.'

export async function generateMetadata(): Promise<Metadata> {
  const settings = await getSiteSettings()
  return pageMetadata({
    title: withBrand(MATERIALS_TITLE, settings),
    description: DESCRIPTION,
    path: MATERIALS_PREFIX,
    settings,
  })
}

export default async function MaterialsRoute() {
  const [materials, settings] = await Promise.all([getMaterialList(), getSiteSettings()])
  return (
    <ArticlesShell settings={settings}>
      <div className="mx-auto max-w-3xl text-center">
        <h1 className="text-3xl font-bold tracking-tight text-navy-950 sm:text-4xl">
          {MATERIALS_TITLE}
        </h1>
        <p className="mt-4 text-lg text-pretty text-slate-600">{DESCRIPTION}</p>
      </div>
      {materials.length > 0 ? (
        <ul className="mt-12 grid gap-8 sm:grid-cols-2">
          {materials.map((material) => (
            <li key={material._id}>
              <MaterialCard material={material} headingLevel={2} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-12 text-center text-slate-600">
          Nenhum material publicado no momento. Volte em breve.
        </p>
      )}
    </ArticlesShell>
  )
}
