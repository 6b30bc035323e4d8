import { defineQuery } from 'next-sanity'

// Shared projections. The same query text runs against the Content Lake (next-sanity's client)
// and against the bundled dataset (groq-js), so keep to GROQ that both evaluate.
const claimFields = /* groq */ `_id, value, label, sourceNote`

const cardFields = /* groq */ `_key, icon, title, description, "claim": claim->{${claimFields}}`

// An image as components/sanity-image.tsx needs it: the editor's crop and hotspot, the alt text,
// and from the asset document its URL (the bundled path's local file), size and blur placeholder.
const imageFields = /* groq */ `
  alt, crop, hotspot,
  "asset": asset->{_id, url, extension, metadata{lqip, hasAlpha, dimensions{width, height}}}
`

const sectionIntroFields = /* groq */ `eyebrow, heading, intro, visual{${imageFields}}`

export const SITE_SETTINGS_QUERY = defineQuery(`
  *[_type == "siteSettings" && _id == "siteSettings"][0]{
    brandName,
    tagline,
    logo{${imageFields}},
    navigation[]{_key, label, anchor},
    headerCta,
    contact{email, phone, hours, whatsappNumber, whatsappGreeting, location, coverage},
    footer{
      description,
      legalLinks[]{_key, label, href},
      socialLinks[]{_key, platform, href}
    },
    seo{title, description, shareImage{${imageFields}}},
    controller{legalName, cnpj},
    dataProtectionOfficer{name, email}
  }
`)

// The legal pages (privacy policy, terms, LGPD, accessibility): one route, app/[slug].
export const LEGAL_PAGE_QUERY = defineQuery(`
  *[_type == "legalPage" && slug.current == $slug][0]{
    title,
    "slug": slug.current,
    summary,
    updatedAt,
    body,
    showDataProtectionContacts,
    seoDescription
  }
`)

export const LEGAL_PAGE_SLUGS_QUERY = defineQuery(`
  *[_type == "legalPage" && defined(slug.current)] | order(slug.current asc){
    "slug": slug.current,
    updatedAt
  }
`)

export const LANDING_PAGE_QUERY = defineQuery(`
  *[_type == "landingPage" && _id == "landingPage"][0]{
    hero{
      eyebrow, headline, description, primaryCta, secondaryCta,
      visual{${imageFields}},
      "stats": stats[]->{${claimFields}}
    },
    sobre{${sectionIntroFields}, points[]{${cardFields}}},
    comoFunciona{${sectionIntroFields}, steps[]{${cardFields}}},
    tecnologia{
      ${sectionIntroFields},
      cards[]{${cardFields}},
      specTitle,
      "specs": specs[]->{${claimFields}}
    },
    beneficios{
      ${sectionIntroFields},
      cards[]{${cardFields}},
      roiTitle, roiDescription,
      "roiFigures": roiFigures[]->{${claimFields}},
      marketsTitle,
      markets[]{_key, icon, name, description, badge}
    },
    contato{${sectionIntroFields}, formTitle, detailsTitle, offerTitle, offers, whatsappCta}
  }
`)
