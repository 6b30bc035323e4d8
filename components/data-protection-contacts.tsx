import type { SiteSettings } from '@/lib/content'

/**
 * Who controls the data and whom to ask (LGPD art. 9 III and art. 41; Resolução CD/ANPD
 * 18/2024 asks for the encarregado's identity and contact to be published clearly), from the
 * site settings, so the pages and the footer always agree.
 */
export function DataProtectionContacts({ settings }: { settings: SiteSettings | null }) {
  const controller = settings?.controller
  const officer = settings?.dataProtectionOfficer
  if (!controller?.legalName && !officer?.email) return null
  return (
    <section
      aria-labelledby="controlador-encarregado"
      className="mt-12 rounded-2xl border border-slate-200 bg-slate-50 p-6 sm:p-8"
    >
      <h2 id="controlador-encarregado" className="text-xl font-bold text-navy-950">
        Controlador e encarregado pelo tratamento de dados
      </h2>
      <dl className="mt-4 grid gap-4 text-slate-700 sm:grid-cols-2">
        {controller?.legalName ? (
          <div>
            <dt className="text-sm font-semibold text-navy-950">Controlador</dt>
            <dd className="mt-1">
              {controller.legalName}
              {controller.cnpj ? <span className="block">CNPJ {controller.cnpj}</span> : null}
            </dd>
          </div>
        ) : null}
        {officer?.email ? (
          <div>
            <dt className="text-sm font-semibold text-navy-950">Encarregado (DPO)</dt>
            <dd className="mt-1">
              {officer.name}
              {officer.email ? (
                <a
                  href={`mailto:${officer.email}`}
                  className="block font-medium break-all text-brand-700 underline underline-offset-4 hover:text-brand-800"
                >
                  {officer.email}
                </a>
              ) : null}
            </dd>
          </div>
        ) : null}
      </dl>
    </section>
  )
}
