/** WhatsApp's click-to-chat address of a number: only its digits reach the link. */
export function whatsappNumberUrl(number: string): string {
  return `https://wa.me/${number.replace(/\D/g, '')}`
}

/** A click-to-chat link that opens WhatsApp with the greeting already typed. https://faq.whatsapp.com/5913398998672934 */
export function whatsappChatUrl(number: string, greeting?: string | null): string {
  const url = new URL(whatsappNumberUrl(number))
  if (greeting?.trim()) url.searchParams.set('text', greeting.trim())
  return url.toString()
}
