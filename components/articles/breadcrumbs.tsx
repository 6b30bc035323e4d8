import type { Crumb } from '@/lib/articles/json-ld'

/** The visible trail; the last step is the current page. BreadcrumbList data repeats it. */
export function Breadcrumbs({ crumbs }: { crumbs: readonly Crumb[] }) {
  return (
    <nav aria-label="Trilha de navegação" className="text-sm text-slate-600">
      <ol className="flex flex-wrap items-center gap-2">
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1
          return (
            <li key={crumb.path} className="flex min-w-0 items-center gap-2">
              {index > 0 ? (
                <span aria-hidden="true" className="text-slate-400">
                  /
                </span>
              ) : null}
              {last ? (
                <span aria-current="page" className="text-slate-700">
                  {crumb.name}
                </span>
              ) : (
                <a
                  href={crumb.path}
                  className="rounded-md font-medium text-brand-700 underline-offset-4 hover:underline"
                >
                  {crumb.name}
                </a>
              )}
            </li>
          )
        })}
      </ol>
    </nav>
  )
}
