import { Icon } from '@/components/icon'
import { Container } from '@/components/ui/section'
import type { SiteSettings } from '@/lib/content'

// Brand marks are not in lucide; these are the platforms' simple glyphs, drawn inline so they
// cost no request.
const SOCIAL_ICONS: Record<string, { label: string; path: string }> = {
  linkedin: {
    label: 'LinkedIn',
    path: 'M20.45 20.45h-3.55v-5.57c0-1.33-.03-3.04-1.85-3.04-1.86 0-2.14 1.45-2.14 2.94v5.67H9.35V9h3.41v1.56h.05c.48-.9 1.64-1.85 3.37-1.85 3.6 0 4.27 2.37 4.27 5.46v6.28zM5.34 7.43a2.06 2.06 0 1 1 0-4.12 2.06 2.06 0 0 1 0 4.12zM7.12 20.45H3.56V9h3.56v11.45z',
  },
  instagram: {
    label: 'Instagram',
    path: 'M12 2.16c3.2 0 3.58.01 4.85.07 3.25.15 4.77 1.69 4.92 4.92.06 1.27.07 1.65.07 4.85s-.01 3.58-.07 4.85c-.15 3.23-1.66 4.77-4.92 4.92-1.27.06-1.64.07-4.85.07s-3.58-.01-4.85-.07c-3.26-.15-4.77-1.7-4.92-4.92C2.17 15.58 2.16 15.2 2.16 12s.01-3.58.07-4.85C2.38 3.92 3.9 2.38 7.15 2.23 8.42 2.17 8.8 2.16 12 2.16zM12 0C8.74 0 8.33.01 7.05.07 2.7.27.27 2.69.07 7.05.01 8.33 0 8.74 0 12s.01 3.67.07 4.95c.2 4.36 2.62 6.78 6.98 6.98 1.28.06 1.69.07 4.95.07s3.67-.01 4.95-.07c4.35-.2 6.78-2.62 6.98-6.98.06-1.28.07-1.69.07-4.95s-.01-3.67-.07-4.95C23.73 2.7 21.31.27 16.95.07 15.67.01 15.26 0 12 0zm0 5.84a6.16 6.16 0 1 0 0 12.32 6.16 6.16 0 0 0 0-12.32zM12 16a4 4 0 1 1 0-8 4 4 0 0 1 0 8zm6.4-11.85a1.44 1.44 0 1 0 0 2.88 1.44 1.44 0 0 0 0-2.88z',
  },
  youtube: {
    label: 'YouTube',
    path: 'M23.5 6.19a3.02 3.02 0 0 0-2.12-2.14C19.5 3.55 12 3.55 12 3.55s-7.5 0-9.38.5A3.02 3.02 0 0 0 .5 6.19C0 8.07 0 12 0 12s0 3.93.5 5.81a3.02 3.02 0 0 0 2.12 2.14c1.88.5 9.38.5 9.38.5s7.5 0 9.38-.5a3.02 3.02 0 0 0 2.12-2.14C24 15.93 24 12 24 12s0-3.93-.5-5.81zM9.55 15.57V8.43L15.82 12l-6.27 3.57z',
  },
}

type Props = {
  settings: SiteSettings | null
  /** Off on the other pages: the navigation then leads to the home page's sections. */
  onHomePage?: boolean
}

export function SiteFooter({ settings, onHomePage = true }: Props) {
  const home = onHomePage ? '' : '/'
  const controller = settings?.controller
  const officer = settings?.dataProtectionOfficer
  const navigation = (settings?.navigation ?? []).filter((item) => item.label && item.anchor)
  const legalLinks = (settings?.footer?.legalLinks ?? []).filter((link) => link.label && link.href)
  const socialLinks = (settings?.footer?.socialLinks ?? []).filter(
    (link) => link.href && link.platform && SOCIAL_ICONS[link.platform],
  )
  const year = new Date().getFullYear()

  return (
    <footer className="bg-navy-950 text-slate-300 render-when-visible">
      <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-3 lg:px-8">
        <div>
          <p className="flex items-center gap-2.5 text-lg font-bold text-white">
            <Icon name="shield-check" className="size-6 text-signal-400" />
            {settings?.brandName}
          </p>
          {settings?.tagline ? <p className="mt-1 text-sm">{settings.tagline}</p> : null}
          {settings?.footer?.description ? (
            <p className="mt-4 text-sm">{settings.footer.description}</p>
          ) : null}
        </div>

        {navigation.length > 0 ? (
          <nav aria-label="Rodapé">
            <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Navegação</h2>
            <ul className="mt-4 space-y-2 text-sm">
              {navigation.map((item) => (
                <li key={item._key}>
                  <a href={`${home}#${item.anchor}`} className="hover:text-white hover:underline">
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}

        {socialLinks.length > 0 ? (
          <div>
            <h2 className="text-sm font-semibold tracking-wide text-white uppercase">
              Redes sociais
            </h2>
            <ul className="mt-4 flex gap-3">
              {socialLinks.map((link) => {
                const icon = SOCIAL_ICONS[link.platform!]!
                return (
                  <li key={link._key}>
                    <a
                      href={link.href!}
                      aria-label={icon.label}
                      className="grid size-11 place-items-center rounded-lg bg-white/10 text-white hover:bg-white/20"
                    >
                      <svg
                        aria-hidden="true"
                        viewBox="0 0 24 24"
                        className="size-5"
                        fill="currentColor"
                      >
                        <path d={icon.path} />
                      </svg>
                    </a>
                  </li>
                )
              })}
            </ul>
          </div>
        ) : null}
      </div>
      <Container className="flex flex-col gap-4 border-t border-white/10 py-6 text-sm">
        <div className="space-y-1">
          <p>
            © {year} {settings?.brandName}. Todos os direitos reservados.
          </p>
          {/* LGPD art. 9 and 41: who controls the data and whom to ask, on every page. */}
          {controller?.legalName ? (
            <p>
              {controller.legalName}
              {controller.cnpj ? ` · CNPJ ${controller.cnpj}` : null}
            </p>
          ) : null}
          {officer?.email ? (
            <p>
              Encarregado pelo tratamento de dados: {officer.name ? `${officer.name}, ` : null}
              <a
                href={`mailto:${officer.email}`}
                className="break-all underline underline-offset-4 hover:text-white"
              >
                {officer.email}
              </a>
            </p>
          ) : null}
        </div>
        {legalLinks.length > 0 ? (
          <ul className="flex flex-wrap gap-x-5 gap-y-2">
            {legalLinks.map((link) => (
              <li key={link._key}>
                <a href={link.href!} className="hover:text-white hover:underline">
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </Container>
    </footer>
  )
}
