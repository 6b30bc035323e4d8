import { PRIVACY_POLICY_PATH } from '@/lib/content/legal-paths'

/**
 * The notice beside the demo form's button: the purpose, the controller, where the data goes and
 * where to read more (LGPD art. 9). A server component handed to the form as a prop, so it costs
 * the form no JavaScript. The policy opens in a new tab, so nothing typed is lost.
 */
export function PrivacyNotice({ brandName }: { brandName?: string | null }) {
  const owner = brandName ? `da ${brandName}` : 'da empresa'
  return (
    <p className="text-xs leading-relaxed text-slate-600">
      Usamos estes dados só para responder ao seu pedido de demonstração: eles ficam na base de
      atendimento {owner}, que retoma o contato por e-mail, telefone ou WhatsApp. Saiba mais na{' '}
      <a
        href={PRIVACY_POLICY_PATH}
        target="_blank"
        rel="noopener"
        className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800"
      >
        Política de Privacidade<span className="sr-only"> (abre em nova aba)</span>
      </a>
      .
    </p>
  )
}
