export const faqBlockFragment = /* groq */ `_type == "faqBlock" => {
  eyebrow, heading, intro,
  items[]{_key, question, answer}
}`
