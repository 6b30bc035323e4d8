import { stegaClean } from 'next-sanity'

import { ArticlesShell } from '@/components/articles/articles-shell'
import { Breadcrumbs } from '@/components/articles/breadcrumbs'
import { ContentImage } from '@/components/content-image'
import { Icon } from '@/components/icon'
import { MaterialLeadForm } from '@/components/materials/material-lead-form'
import { breadcrumbJsonLd, type Crumb } from '@/lib/articles/json-ld'
import type { Material, SiteSettings } from '@/lib/content'
import { shareImageUrl } from '@/lib/content/share-image'
import { serverEnv } from '@/lib/env'
import { jsonLdScript } from '@/lib/site-metadata'
import type { MaterialFieldChoice } from '@/lib/validations/material-request-fields'
import { MATERIALS_PREFIX, materialPath } from '@/sanity/lib/paths'

export const MATERIALS_TITLE = 'Materiais'

export function materialCrumbs(material: Pick<Material, 'title' | 'slug'>): Crumb[] {
  return [
    { name: 'Início', path: '/' },
    { name: MATERIALS_TITLE, path: MATERIALS_PREFIX },
    { name: stegaClean(material.title ?? ''), path: materialPath(material.slug ?? '') },
  ]
}

/**
 * A material's page: its cover, what the reader will learn, and the form. The file's address is
 * nowhere in it: only the answer to a valid form carries a signed download link.
 */
export function MaterialPageView({
  material,
  settings,
}: {
  material: Material
  settings: SiteSettings | null
}) {
  const slug = material.slug ?? ''
  const origin = serverEnv.siteUrl
  const crumbs = materialCrumbs(material)
  const cover = shareImageUrl(material.cover)
  // A free document behind a form: schema.org's DigitalDocument, described as the page shows it.
  const structuredData = [
    {
      '@context': 'https://schema.org',
      '@type': 'DigitalDocument',
      name: stegaClean(material.title ?? ''),
      description: stegaClean(material.description ?? ''),
      url: new URL(materialPath(slug), origin).href,
      inLanguage: 'pt-BR',
      isAccessibleForFree: true,
      ...(cover ? { image: new URL(cover, origin).href } : {}),
      publisher: { '@type': 'Organization', name: stegaClean(settings?.brandName ?? 'Vigia') },
    },
    breadcrumbJsonLd(crumbs, origin),
  ]
  const choices = (material.formFields ?? []).flatMap((choice) =>
    choice.field ? [{ field: stegaClean(choice.field), required: choice.required === true }] : [],
  ) as MaterialFieldChoice[]

  return (
    <ArticlesShell settings={settings}>
      <script
        type="application/ld+json"
        dangerouslySetInnerHTML={{ __html: jsonLdScript(structuredData) }}
      />
      <Breadcrumbs crumbs={crumbs} />
      <div className="mt-6 grid items-start gap-10 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
        <div>
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">
            Material gratuito
          </p>
          <h1 className="mt-2 text-3xl font-bold tracking-tight text-balance text-navy-950 sm:text-4xl">
            {material.title}
          </h1>
          {material.description ? (
            <p className="mt-4 text-lg text-pretty text-slate-600">{material.description}</p>
          ) : null}
          <div className="mt-8 flex flex-col gap-8 sm:flex-row">
            {material.cover ? (
              // A width of its own, not a utility class: the stylesheet is every page's (page-weight budget).
              <div className="shrink-0" style={{ width: '10rem' }}>
                <ContentImage
                  image={material.cover}
                  sizes="(min-width: 640px) 192px, 160px"
                  priority
                  className="h-auto w-full rounded-lg border border-slate-200 shadow-sm"
                />
              </div>
            ) : null}
            {material.learnings?.length ? (
              <div>
                <h2 className="text-lg font-semibold text-navy-950">O que você vai aprender</h2>
                <ul className="mt-3 space-y-2">
                  {material.learnings.map((item, index) => (
                    <li key={index} className="flex gap-2 text-slate-700">
                      <Icon name="check" className="mt-1 size-4 shrink-0 text-brand-700" />
                      <span>{item}</span>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </div>
        </div>
        <MaterialLeadForm slug={slug} title={stegaClean(material.title ?? '')} choices={choices} />
      </div>
    </ArticlesShell>
  )
}
