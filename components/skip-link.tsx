/** The first focusable element of every page: keyboard users jump past the fixed header. */
export function SkipLink() {
  return (
    <a
      href="#conteudo"
      className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:font-semibold focus:text-navy-950 focus:shadow-lg"
    >
      Pular para o conteúdo
    </a>
  )
}
