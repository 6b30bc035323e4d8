import { listingPagePath } from '@/sanity/lib/paths'

/** Real links to the listing's other pages, so every page can be crawled and bookmarked. */
export function Pagination({ page, pageCount }: { page: number; pageCount: number }) {
  if (pageCount <= 1) return null
  const pages = Array.from({ length: pageCount }, (_, index) => index + 1)
  const link = 'rounded-md px-3 py-2 font-medium text-brand-700 underline-offset-4 hover:underline'
  return (
    <nav aria-label="Páginas da lista de conteúdos" className="mt-12">
      <ul role="list" className="flex flex-wrap items-center gap-2 text-sm">
        {page > 1 ? (
          <li>
            <a href={listingPagePath(page - 1)} rel="prev" className={link}>
              Anterior
            </a>
          </li>
        ) : null}
        {pages.map((number) => (
          <li key={number}>
            {number === page ? (
              <span
                aria-current="page"
                className="rounded-md bg-navy-950 px-3 py-2 font-semibold text-white"
              >
                <span className="sr-only">Página </span>
                {number}
              </span>
            ) : (
              <a href={listingPagePath(number)} className={link}>
                <span className="sr-only">Página </span>
                {number}
              </a>
            )}
          </li>
        ))}
        {page < pageCount ? (
          <li>
            <a href={listingPagePath(page + 1)} rel="next" className={link}>
              Próxima
            </a>
          </li>
        ) : null}
      </ul>
    </nav>
  )
}
