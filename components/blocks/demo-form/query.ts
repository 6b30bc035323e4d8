export const demoFormBlockFragment = /* groq */ `_type == "demoFormBlock" => {
  eyebrow, heading, intro, formTitle, detailsTitle, offerTitle, offers, whatsappCta
}`
