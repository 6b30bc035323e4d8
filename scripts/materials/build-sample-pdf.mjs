#!/usr/bin/env node
// Writes sanity/dataset/files/checklist-camera-cabine-lgpd.pdf: the sample "material rico" bundled
// with the dataset (issue 65), a 4-page A4 checklist for a fleet preparing in-cab camera
// monitoring. Every item is taken from what the site already publishes (the article
// article-lgpd-camera-na-cabine, the landing page, the FAQ and the legal pages): no figure, study
// or legal advice the site does not state. The text lives below as data; after editing it, rerun
//
//   node scripts/materials/build-sample-pdf.mjs
//
// and look at the result (pdftoppm -png). No packages: a plain PDF 1.4 with the standard
// Helvetica fonts in WinAnsiEncoding (so "ç", "ã" and "º" work) and uncompressed content streams.
// The output is deterministic (no dates, /ID from the content), so rerunning gives the same bytes.

import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const output = path.join(root, 'sanity', 'dataset', 'files', 'checklist-camera-cabine-lgpd.pdf')

// ---------------------------------------------------------------------------------------------
// Content (pt-BR). `b` is a bold lead-in, `t` the rest of the item. Sources: document _ids.

const TITLE = 'Checklist: câmera na cabine e LGPD'
const SUBTITLE =
  'O que a sua frota precisa preparar antes de monitorar a fadiga e a distração do motorista com uma câmera na cabine.'
const BRAND = 'Vigia · Fleet Safety Technology'
const BRAND_DESCRIPTION =
  'Inteligência artificial e visão computacional no celular do motorista para detectar fadiga, sonolência e distração antes que virem acidente.'

const COVER = {
  eyebrow: 'CHECKLIST PARA GESTORES DE FROTA',
  audienceTitle: 'Para quem é',
  audience:
    'Gestores de transportadoras e empresas de ônibus que vão adotar o monitoramento de fadiga e distração com a câmera do celular do motorista.',
  contentsTitle: 'O que você vai encontrar',
  note: 'Este checklist resume o que a Vigia publica no artigo “LGPD e câmera na cabine: o que a lei pede de quem monitora o motorista” e nas páginas do site. Ele não substitui a orientação do jurídico e do encarregado de dados da sua empresa.',
}

const HOW_TO_USE =
  'Marque cada item quando a sua frota tiver resolvido o ponto. Os artigos citados são da Lei Geral de Proteção de Dados Pessoais (Lei nº 13.709/2018, a LGPD).'

const SECTIONS = [
  {
    title: 'Entenda o que a câmera trata',
    items: [
      {
        b: 'Trate a imagem do rosto como dado pessoal.',
        t: 'A imagem do motorista, ligada à escala e ao veículo, é dado pessoal (art. 5º, I).',
        from: ['article-lgpd-camera-na-cabine'],
      },
      {
        b: 'Verifique se há dado biométrico.',
        t: 'Se o tratamento usa características do rosto para identificar a pessoa, o dado pode ser sensível (art. 5º, II), com regras mais estritas (art. 11).',
        from: ['article-lgpd-camera-na-cabine'],
      },
      {
        b: 'Saiba o que a câmera acompanha.',
        t: 'Na Vigia: olhos, rosto e postura, pelos pontos-chave do rosto, a abertura dos olhos e a direção do olhar. É o que o motorista precisa saber.',
        from: ['landingPage', 'article-como-o-celular-detecta-fadiga'],
      },
    ],
    source:
      'artigo “LGPD e câmera na cabine”; seções Como funciona e Tecnologia da página inicial.',
  },
  {
    title: 'Finalidade e necessidade (art. 6º)',
    items: [
      {
        b: 'Defina e documente a finalidade do monitoramento.',
        t: 'Ela precisa ser legítima, específica e informada ao motorista, como a prevenção de acidentes por fadiga e distração.',
        from: ['article-lgpd-camera-na-cabine'],
      },
      {
        b: 'Trate só o mínimo de dados.',
        t: 'Limite o tratamento ao que essa finalidade exige, sem gravar tudo por garantia.',
        from: ['article-lgpd-camera-na-cabine'],
      },
    ],
    source: 'artigo “LGPD e câmera na cabine”.',
  },
  {
    title: 'Base legal',
    items: [
      {
        b: 'Escolha a base legal com o jurídico e o encarregado de dados.',
        t: 'Todo tratamento precisa de uma, e a escolha é da empresa, como controladora dos dados.',
        from: ['article-lgpd-camera-na-cabine'],
      },
      {
        b: 'Avalie as hipóteses do art. 7º.',
        t: 'Entre elas: cumprimento de obrigação legal, execução de contrato e proteção da vida ou da incolumidade física do titular ou de terceiros.',
        from: ['article-lgpd-camera-na-cabine'],
      },
      {
        b: 'Se houver dado sensível, siga o art. 11.',
        t: 'A lista é mais restrita e inclui o cumprimento de obrigação legal e a proteção da vida ou da incolumidade física.',
        from: ['article-lgpd-camera-na-cabine'],
      },
    ],
    source: 'artigo “LGPD e câmera na cabine”.',
  },
  {
    title: 'Transparência com o motorista',
    items: [
      {
        b: 'Informe o motorista por escrito, antes de começar.',
        t: 'Com clareza: o que é captado, para quê, por quanto tempo e quem tem acesso.',
        from: ['article-lgpd-camera-na-cabine'],
      },
      {
        b: 'Inclua o monitoramento no treinamento de implantação.',
        t: 'Apresente a política e o funcionamento do app a cada motorista.',
        from: ['article-lgpd-camera-na-cabine'],
      },
      {
        b: 'Deixe claro o propósito dos alertas.',
        t: 'Pausas na hora certa e uma jornada acompanhada de perto, sem caráter punitivo.',
        from: ['landingPage'],
      },
      {
        b: 'Abra um canal para dúvidas e para os direitos de titular.',
        t: 'O motorista pode exercer os direitos do art. 18, como confirmação do tratamento, acesso e correção dos dados, entre outros.',
        from: ['article-lgpd-camera-na-cabine', 'legalPage-lgpd'],
      },
    ],
    source:
      'artigo “LGPD e câmera na cabine”; seção Benefícios da página inicial; página LGPD: seus direitos.',
  },
  {
    title: 'Segurança e acesso',
    items: [
      {
        b: 'Garanta medidas de segurança técnicas e administrativas.',
        t: 'A LGPD pede proteção dos dados pessoais contra acessos não autorizados e vazamentos (art. 46).',
        from: ['article-lgpd-camera-na-cabine'],
      },
      {
        b: 'Configure acessos por perfil.',
        t: 'Cada pessoa vê só o que precisa.',
        from: ['article-lgpd-camera-na-cabine', 'landingPage'],
      },
      {
        b: 'Confirme onde a análise acontece e como os dados trafegam.',
        t: 'Na Vigia, a análise roda no próprio celular e os dados são minimizados e criptografados em repouso (AES-256) e em trânsito (HTTPS/TLS 1.3).',
        from: ['article-lgpd-camera-na-cabine', 'claim-encryption', 'claim-tls', 'claim-lgpd'],
      },
      {
        b: 'Mapeie quem recebe cada alerta.',
        t: 'Na Vigia, a central da frota e os parceiros são acionados automaticamente e os eventos ficam registrados para a gestão da frota.',
        from: ['article-protocolo-de-resposta-apos-alerta', 'landingPage'],
      },
    ],
    source:
      'artigo “LGPD e câmera na cabine”; artigo e perguntas frequentes sobre o protocolo de resposta; especificações técnicas do site.',
  },
  {
    title: 'Guarda e revisão',
    items: [
      {
        b: 'Defina por quanto tempo os registros ficam guardados.',
        t: 'E revise esse prazo periodicamente.',
        from: ['article-lgpd-camera-na-cabine'],
      },
      {
        b: 'Confira no contrato como os dados do app são tratados.',
        t: 'O tratamento dos dados do aplicativo usado pelos motoristas é regido pelo contrato com cada cliente, não pela política de privacidade do site.',
        from: ['legalPage-privacidade'],
      },
    ],
    source: 'artigo “LGPD e câmera na cabine”; Política de Privacidade do site.',
  },
]

// A worksheet for the decisions the items above ask for (no new content: the fields are items).
const WORKSHEET = {
  title: 'Anote as decisões da sua frota',
  intro:
    'Registre aqui o que foi definido em cada etapa do checklist, para consultar na implantação e revisar periodicamente.',
  fields: [
    'Finalidade do monitoramento',
    'Base legal escolhida',
    'Prazo de guarda dos registros',
    'Perfis de acesso (quem vê o quê)',
    'Como e quando os motoristas foram informados',
    'Canal para dúvidas e direitos do titular',
    'Próxima revisão',
  ],
}

const NEXT_STEPS = {
  title: 'Próximos passos',
  items: [
    {
      b: 'Leia o artigo completo.',
      t: '“LGPD e câmera na cabine: o que a lei pede de quem monitora o motorista”, na área de conteúdos do site da Vigia (/conteudos/lgpd-camera-na-cabine).',
    },
    {
      b: 'Veja como a Vigia trata dados pessoais.',
      t: 'A Política de Privacidade (/privacidade) explica o tratamento dos dados de quem pede uma demonstração; a página LGPD: seus direitos (/lgpd) mostra como exercê-los.',
    },
    {
      b: 'Tire suas dúvidas sobre LGPD com a nossa equipe.',
      t: 'Peça uma demonstração na seção Contato da página inicial (/#contato): mostramos o que o app capta, onde os dados ficam e quem tem acesso. A equipe retorna em até 24 horas.',
    },
  ],
  contact: 'contato@vigiafrota.com.br  ·  (12) 3500-4200  ·  segunda a sexta, das 8h às 18h',
}

// ---------------------------------------------------------------------------------------------
// Fonts: Helvetica and Helvetica-Bold advance widths (Adobe AFM, 1/1000 em) for ASCII 32-126,
// plus the WinAnsi characters used here. Accented letters take their base letter's width.

const ASCII =
  ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~'
// prettier-ignore
const WIDTHS = {
  regular: [278,278,355,556,556,889,667,191,333,333,389,584,278,333,278,278,556,556,556,556,556,556,556,556,556,556,278,278,584,584,584,556,1015,667,667,722,722,667,611,778,722,278,500,667,556,833,722,778,667,778,722,667,611,722,667,944,667,667,611,278,278,278,469,556,333,556,556,500,556,556,278,556,556,222,222,500,222,833,556,556,556,556,333,500,278,556,500,722,500,500,500,334,260,334,584],
  bold: [278,333,474,556,556,889,722,238,333,333,389,584,278,333,278,278,556,556,556,556,556,556,556,556,556,556,333,333,584,584,584,611,975,722,722,722,722,667,611,778,722,278,556,722,611,833,722,778,667,778,722,667,611,722,667,944,667,667,611,333,278,333,584,556,333,556,611,556,611,556,333,611,611,278,278,556,278,889,611,611,611,611,389,556,333,611,556,778,556,556,500,389,280,389,584],
}
const SPECIAL_WIDTHS = {
  regular: {
    '·': 278,
    '–': 556,
    '—': 1000,
    '“': 333,
    '”': 333,
    '‘': 222,
    '’': 222,
    '•': 350,
    º: 365,
    ª: 370,
    '§': 556,
    í: 278,
    Í: 278,
  },
  bold: {
    '·': 278,
    '–': 556,
    '—': 1000,
    '“': 500,
    '”': 500,
    '‘': 278,
    '’': 278,
    '•': 350,
    º: 365,
    ª: 370,
    '§': 556,
    í: 278,
    Í: 278,
  },
}
// cp1252 bytes 0x80-0x9f that the text may use; the rest of Latin-1 maps to itself.
const CP1252 = {
  '€': 0x80,
  '…': 0x85,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
}

function charWidth(ch, weight) {
  const special = SPECIAL_WIDTHS[weight][ch]
  if (special) return special
  const base = ch.normalize('NFD')[0]
  const index = ASCII.indexOf(base)
  if (index === -1) throw new Error(`No width for ${JSON.stringify(ch)}: add it to SPECIAL_WIDTHS`)
  return WIDTHS[weight][index]
}

const textWidth = (text, weight, size) =>
  ([...text].reduce((sum, ch) => sum + charWidth(ch, weight), 0) * size) / 1000

/** A PDF string literal: WinAnsi bytes, with ( ) \ escaped and non-ASCII bytes as octal. */
function pdfString(text) {
  let out = '('
  for (const ch of text) {
    const code = CP1252[ch] ?? ch.codePointAt(0)
    if (code > 0xff || (code >= 0x80 && code < 0xa0 && !(ch in CP1252)))
      throw new Error(`${JSON.stringify(ch)} is not in WinAnsiEncoding`)
    if (ch === '(' || ch === ')' || ch === '\\') out += '\\' + ch
    else if (code < 0x20 || code > 0x7e) out += '\\' + code.toString(8).padStart(3, '0')
    else out += ch
  }
  return out + ')'
}

// ---------------------------------------------------------------------------------------------
// Layout

const PAGE_W = 595.28
const PAGE_H = 841.89
const MARGIN = 56
const CONTENT_W = PAGE_W - 2 * MARGIN
const TOP = PAGE_H - 78 // below the running header
const BOTTOM = 74 // above the footer

const NAVY = [0x0b, 0x1f, 0x3f]
const BRAND_700 = [0x1a, 0x4f, 0xb0]
const BRAND_50 = [0xee, 0xf5, 0xff]
const BRAND_100 = [0xd9, 0xe8, 0xff]
const SIGNAL = [0xfb, 0xbf, 0x24]
const SLATE_300 = [0xcb, 0xd5, 0xe1]
const SLATE_600 = [0x47, 0x55, 0x69]
const TEXT = [0x1e, 0x29, 0x3b]

const rgb = (color) => color.map((c) => +(c / 255).toFixed(3)).join(' ')
const n = (value) => +value.toFixed(2)

/** Words of a rich paragraph ([{ text, weight }]) wrapped to `width`: lines of runs. */
function wrap(runs, size, width) {
  const words = []
  for (const { text, weight } of runs)
    for (const word of text.split(/\s+/).filter(Boolean)) words.push({ word, weight })
  const lines = []
  let line = []
  let lineWidth = 0
  for (const { word, weight } of words) {
    const space = line.length ? textWidth(' ', line.at(-1).weight, size) : 0
    const w = textWidth(word, weight, size)
    if (line.length && lineWidth + space + w > width) {
      lines.push(line)
      line = []
      lineWidth = 0
    }
    line.push({ word, weight })
    lineWidth += (line.length > 1 ? space : 0) + w
  }
  if (line.length) lines.push(line)
  // Merge consecutive words of the same weight into runs.
  return lines.map((words) => {
    const merged = []
    for (const { word, weight } of words) {
      const last = merged.at(-1)
      if (last && last.weight === weight) last.text += ' ' + word
      else merged.push({ text: (merged.length ? ' ' : '') + word, weight })
    }
    return merged
  })
}

const FONT = { regular: 'F1', bold: 'F2' }

class Page {
  constructor() {
    this.ops = []
  }
  fill(color) {
    this.ops.push(`${rgb(color)} rg`)
  }
  stroke(color) {
    this.ops.push(`${rgb(color)} RG`)
  }
  rect(x, y, w, h, mode = 'f') {
    this.ops.push(`${n(x)} ${n(y)} ${n(w)} ${n(h)} re ${mode}`)
  }
  raw(op) {
    this.ops.push(op)
  }
  /** One line of runs at (x, y) baseline. */
  line(runs, x, y, size, color) {
    this.fill(color)
    let op = `BT ${n(x)} ${n(y)} Td`
    for (const { text, weight } of runs) op += ` /${FONT[weight]} ${size} Tf ${pdfString(text)} Tj`
    this.ops.push(op + ' ET')
  }
  text(text, x, y, size, color, weight = 'regular') {
    this.line([{ text, weight }], x, y, size, color)
  }
  /** A wrapped paragraph from baseline y; returns the baseline after the last line. */
  paragraph(runs, x, y, size, leading, width, color) {
    for (const line of wrap(runs, size, width)) {
      this.line(line, x, y, size, color)
      y -= leading
    }
    return y
  }
}

const paragraphHeight = (runs, size, leading, width) => wrap(runs, size, width).length * leading

/** A shield with a camera lens and a check: the Vigia mark for this material. */
function shieldIcon(page, cx, top, s) {
  const p = (x, y) => `${n(cx + x * s)} ${n(top - y * s)}`
  page.raw(`${n(3 * s)} w 1 J 1 j`)
  page.stroke(SIGNAL)
  page.raw(
    `${p(0, 0)} m ${p(22, 8)} ${p(40, 9)} ${p(40, 9)} c ${p(40, 40)} ${p(34, 62)} ${p(0, 80)} c ` +
      `${p(-34, 62)} ${p(-40, 40)} ${p(-40, 9)} c ${p(-40, 9)} ${p(-22, 8)} ${p(0, 0)} c h S`,
  )
  // Lens: a circle (four Béziers) with a dot.
  const circle = (x, y, r) => {
    const k = 0.5523 * r
    return (
      `${p(x + r, y)} m ${p(x + r, y + k)} ${p(x + k, y + r)} ${p(x, y + r)} c ` +
      `${p(x - k, y + r)} ${p(x - r, y + k)} ${p(x - r, y)} c ` +
      `${p(x - r, y - k)} ${p(x - k, y - r)} ${p(x, y - r)} c ` +
      `${p(x + k, y - r)} ${p(x + r, y - k)} ${p(x + r, y)} c h`
    )
  }
  page.stroke([0xff, 0xff, 0xff])
  page.raw(`${n(2.5 * s)} w ${circle(0, 34, 13)} S`)
  page.fill([0xff, 0xff, 0xff])
  page.raw(`${circle(0, 34, 4.5)} f`)
  page.raw('1 w 0 J 0 j')
}

function checkbox(page, x, baseline) {
  const box = 11
  page.stroke(BRAND_700)
  page.raw('1.2 w')
  page.rect(x, baseline - 2, box, box, 'S')
  page.raw('1 w')
  return box
}

function buildCover() {
  const page = new Page()
  const bandBottom = PAGE_H - 430
  page.fill(NAVY)
  page.rect(0, bandBottom, PAGE_W, PAGE_H - bandBottom)
  page.fill(SIGNAL)
  page.rect(0, bandBottom, PAGE_W, 6)

  shieldIcon(page, PAGE_W - MARGIN - 44, PAGE_H - 70, 1.1)

  page.line(
    [
      { text: 'Vigia', weight: 'bold' },
      { text: ' · Fleet Safety Technology', weight: 'regular' },
    ],
    MARGIN,
    PAGE_H - 84,
    13,
    [0xff, 0xff, 0xff],
  )
  page.text(COVER.eyebrow, MARGIN, PAGE_H - 168, 10, SIGNAL, 'bold')
  let y = PAGE_H - 210
  for (const line of wrap([{ text: TITLE, weight: 'bold' }], 34, CONTENT_W - 60)) {
    page.line(line, MARGIN, y, 34, [0xff, 0xff, 0xff])
    y -= 42
  }
  y -= 10
  page.fill(SIGNAL)
  page.rect(MARGIN, y + 10, 48, 4)
  y -= 20
  y = page.paragraph(
    [{ text: SUBTITLE, weight: 'regular' }],
    MARGIN,
    y,
    15,
    21,
    CONTENT_W - 40,
    SLATE_300,
  )

  // Below the band: who it is for, what is inside, the note.
  y = bandBottom - 48
  page.text(COVER.audienceTitle.toUpperCase(), MARGIN, y, 9, BRAND_700, 'bold')
  y = page.paragraph(
    [{ text: COVER.audience, weight: 'regular' }],
    MARGIN,
    y - 17,
    11,
    15.5,
    CONTENT_W,
    TEXT,
  )

  y -= 18
  page.text(COVER.contentsTitle.toUpperCase(), MARGIN, y, 9, BRAND_700, 'bold')
  y -= 19
  const titles = [...SECTIONS.map((s) => s.title), WORKSHEET.title, NEXT_STEPS.title]
  const colW = CONTENT_W / 2
  titles.forEach((title, i) => {
    const col = i < 4 ? 0 : 1
    const row = i < 4 ? i : i - 4
    const x = MARGIN + col * colW
    const ty = y - row * 19
    page.text(String(i + 1).padStart(2, '0'), x, ty, 10, BRAND_700, 'bold')
    page.text(title, x + 22, ty, 10.5, TEXT)
  })
  y -= 4 * 19 + 14

  const noteRuns = [{ text: COVER.note, weight: 'regular' }]
  const noteH = paragraphHeight(noteRuns, 9.5, 13.5, CONTENT_W - 32) + 20
  page.fill(BRAND_50)
  page.rect(MARGIN, y - noteH, CONTENT_W, noteH)
  page.fill(BRAND_700)
  page.rect(MARGIN, y - noteH, 3, noteH)
  page.paragraph(noteRuns, MARGIN + 16, y - 19, 9.5, 13.5, CONTENT_W - 32, SLATE_600)

  return page
}

/** Builds the checklist pages by flowing blocks; each block is { height, draw(page, y) }. */
function buildBody() {
  const pages = []
  let page
  let y
  const newPage = () => {
    page = new Page()
    pages.push(page)
    y = TOP
  }
  const place = (height, draw) => {
    if (y - height < BOTTOM) newPage()
    draw(page, y)
    y -= height
  }
  newPage()

  const intro = [
    { text: 'Como usar: ', weight: 'bold' },
    { text: HOW_TO_USE, weight: 'regular' },
  ]
  const introH = paragraphHeight(intro, 10, 14, CONTENT_W - 28) + 18
  place(introH + 16, (p, top) => {
    p.fill(BRAND_50)
    p.rect(MARGIN, top - introH, CONTENT_W, introH)
    p.paragraph(intro, MARGIN + 14, top - 16, 10, 14, CONTENT_W - 28, TEXT)
  })

  const ITEM_SIZE = 10.5
  const ITEM_LEADING = 14.5
  const ITEM_X = MARGIN + 24
  const ITEM_W = CONTENT_W - 24
  const itemRuns = (item) => [
    { text: item.b, weight: 'bold' },
    { text: item.t, weight: 'regular' },
  ]
  const itemBlock = (item, marker) => {
    const runs = itemRuns(item)
    const height = paragraphHeight(runs, ITEM_SIZE, ITEM_LEADING, ITEM_W) + 10
    return {
      height,
      draw: (p, top) => {
        const baseline = top - ITEM_SIZE
        marker(p, baseline)
        p.paragraph(runs, ITEM_X, baseline, ITEM_SIZE, ITEM_LEADING, ITEM_W, TEXT)
      },
    }
  }
  const headingBlock = (number, title) => ({
    height: 38,
    draw: (p, top) => {
      const baseline = top - 22
      if (number) {
        p.fill(NAVY)
        p.rect(MARGIN, baseline - 5, 20, 20)
        p.text(
          String(number),
          MARGIN + (number > 9 ? 4 : 7),
          baseline + 1,
          11,
          [0xff, 0xff, 0xff],
          'bold',
        )
      }
      p.text(title, number ? MARGIN + 30 : MARGIN, baseline, 14, NAVY, 'bold')
    },
  })

  SECTIONS.forEach((section, index) => {
    const heading = headingBlock(index + 1, section.title)
    const items = section.items.map((item) =>
      itemBlock(item, (p, baseline) => checkbox(p, MARGIN + 2, baseline)),
    )
    const sourceRuns = [
      { text: 'Com base em: ', weight: 'bold' },
      { text: section.source, weight: 'regular' },
    ]
    const sourceH = paragraphHeight(sourceRuns, 8.5, 11.5, ITEM_W) + 20
    // Keep a section on one page.
    const sectionH = heading.height + items.reduce((sum, i) => sum + i.height, 0) + sourceH
    if (y - sectionH < BOTTOM) newPage()
    place(heading.height, heading.draw)
    for (const item of items) place(item.height, item.draw)
    place(sourceH, (p, top) =>
      p.paragraph(sourceRuns, ITEM_X, top - 4, 8.5, 11.5, ITEM_W, SLATE_600),
    )
  })

  // The worksheet: a label and a writing line per field, kept on one page.
  const wsHeading = headingBlock(0, WORKSHEET.title)
  const wsIntro = [{ text: WORKSHEET.intro, weight: 'regular' }]
  const wsIntroH = paragraphHeight(wsIntro, 10, 14, CONTENT_W) + 16
  const ROW_H = 40
  if (y - (wsHeading.height + wsIntroH + WORKSHEET.fields.length * ROW_H) < BOTTOM) newPage()
  place(wsHeading.height, wsHeading.draw)
  place(wsIntroH, (p, top) => p.paragraph(wsIntro, MARGIN, top - 10, 10, 14, CONTENT_W, SLATE_600))
  for (const field of WORKSHEET.fields) {
    place(ROW_H, (p, top) => {
      p.text(field, MARGIN, top - 12, 9.5, TEXT, 'bold')
      p.fill(SLATE_300)
      p.rect(MARGIN, top - ROW_H + 6, CONTENT_W, 0.8)
    })
  }
  y -= 28

  // Próximos passos: bullets and the contact line, kept on one page.
  const steps = NEXT_STEPS.items.map((item) =>
    itemBlock(item, (p, baseline) => {
      p.fill(SIGNAL)
      p.rect(MARGIN + 4, baseline + 1.5, 7, 7)
    }),
  )
  const heading = headingBlock(0, NEXT_STEPS.title)
  const stepsH = heading.height + steps.reduce((sum, s) => sum + s.height, 0) + 34
  if (y - stepsH - 12 < BOTTOM) newPage()
  y -= 12
  place(2, (p, top) => {
    p.fill(SIGNAL)
    p.rect(MARGIN, top, CONTENT_W, 2)
  })
  place(heading.height, heading.draw)
  for (const step of steps) place(step.height, step.draw)
  place(30, (p, top) => {
    p.fill(BRAND_100)
    p.rect(MARGIN, top - 26, CONTENT_W, 26)
    const w = textWidth(NEXT_STEPS.contact, 'bold', 10)
    p.text(NEXT_STEPS.contact, MARGIN + (CONTENT_W - w) / 2, top - 17, 10, NAVY, 'bold')
  })

  return pages
}

function decorate(pages) {
  const total = pages.length
  pages.forEach((page, i) => {
    const number = `${i + 1} / ${total}`
    page.fill(SLATE_300)
    page.rect(MARGIN, 52, CONTENT_W, 0.6)
    page.text(BRAND, MARGIN, 38, 8.5, SLATE_600, 'bold')
    page.text(number, PAGE_W - MARGIN - textWidth(number, 'regular', 8.5), 38, 8.5, SLATE_600)
    if (i === 0) {
      const desc = BRAND_DESCRIPTION
      page.paragraph(
        [{ text: desc, weight: 'regular' }],
        MARGIN,
        86,
        8.5,
        11.5,
        CONTENT_W,
        SLATE_600,
      )
      return
    }
    // Running header on the checklist pages.
    page.fill(NAVY)
    page.rect(0, PAGE_H - 8, PAGE_W, 8)
    page.text(TITLE, MARGIN, PAGE_H - 44, 9, NAVY, 'bold')
    const right = 'Vigia'
    page.text(
      right,
      PAGE_W - MARGIN - textWidth(right, 'bold', 9),
      PAGE_H - 44,
      9,
      BRAND_700,
      'bold',
    )
    page.fill(SLATE_300)
    page.rect(MARGIN, PAGE_H - 54, CONTENT_W, 0.6)
  })
}

// ---------------------------------------------------------------------------------------------
// PDF file

function serialize(pages) {
  const objects = [] // index i holds object i + 1
  const add = (body) => {
    objects.push(body)
    return objects.length
  }
  const catalog = add(null)
  const pagesRoot = add(null)
  const regular = add(
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  )
  const bold = add(
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
  )
  const info = add(
    `<< /Title ${pdfString(TITLE)} /Author (Vigia) /Subject ${pdfString(SUBTITLE)} ` +
      `/Keywords ${pdfString('LGPD, câmera na cabine, monitoramento de fadiga, frotas')} ` +
      `/Creator (scripts/materials/build-sample-pdf.mjs) /Producer (Vigia) >>`,
  )
  const kids = []
  for (const page of pages) {
    const content = page.ops.join('\n') + '\n'
    const stream = add(
      `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`,
    )
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesRoot} 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] ` +
          `/Resources << /Font << /F1 ${regular} 0 R /F2 ${bold} 0 R >> /ProcSet [/PDF /Text] >> ` +
          `/Contents ${stream} 0 R >>`,
      ),
    )
  }
  objects[catalog - 1] =
    `<< /Type /Catalog /Pages ${pagesRoot} 0 R /Lang (pt-BR) ` +
    `/ViewerPreferences << /DisplayDocTitle true >> >>`
  objects[pagesRoot - 1] =
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`

  const chunks = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')]
  let offset = chunks[0].length
  const offsets = []
  objects.forEach((body, i) => {
    offsets.push(offset)
    const chunk = Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`, 'latin1')
    chunks.push(chunk)
    offset += chunk.length
  })
  const id = createHash('md5').update(Buffer.concat(chunks)).digest('hex')
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R ` +
    `/ID [<${id}> <${id}>] >>\nstartxref\n${offset}\n%%EOF\n`
  chunks.push(Buffer.from(xref, 'latin1'))
  return Buffer.concat(chunks)
}

const body = buildBody()
const pages = [buildCover(), ...body]
decorate(pages)
const pdf = serialize(pages)
mkdirSync(path.dirname(output), { recursive: true })
writeFileSync(output, pdf)
console.log(`${path.relative(root, output)}: ${pages.length} pages, ${pdf.length} bytes`)
