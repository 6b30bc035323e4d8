/** A click-to-chat link that opens WhatsApp with the greeting already typed. https://faq.whatsapp.com/5913398998672934 */
export function whatsappChatUrl(number: string, greeting?: string | null): string {
  const digits = number.replace(/\D/g, '')
  const url = new URL(`https://wa.me/${digits}`)
  if (greeting?.trim()) url.searchParams.set('text', greeting.trim())
  return url.toString()
}
