// @vitest-environment jsdom
// The Studio's Desempenho tool and a page's Desempenho tab, rendered with Sanity UI and a fetch
// double that answers GET /api/analytics as the contract says: the tables, the pt-BR conversion,
// the comparison with the period before, the CSV download with the editor's token, and the
// refusals and failures an editor can meet.
import { studioTheme, ThemeProvider } from '@sanity/ui'
import { act, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import {
  NO_CAMPAIGN_KEY,
  type Report,
  type ReportGroup,
  type ReportRow,
} from '@/lib/analytics/report-schema'

// The Studio's client, as useClient() gives it to a signed-in editor (loginMethod 'token').
let studioToken: string | undefined = 'editor-token'
/** The signed-in user's roles in the project, as useCurrentUser() gives them. */
let studioRoles = ['editor']
vi.mock('sanity', () => ({
  useClient: () => ({ config: () => ({ token: studioToken }) }),
  useCurrentUser: () => ({ id: 'u1', roles: studioRoles.map((name) => ({ name, title: name })) }),
}))

const { PerformanceTool, PerformanceView } = await import('@/sanity/performance/performance-tool')

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true
// The first render builds Sanity UI's and the chart's styles: seconds on a loaded 2-core machine.
vi.setConfig({ testTimeout: 60_000 })

// jsdom has no layout: Sanity UI and the chart observe sizes that never change here.
class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

const row = (
  key: string,
  visits: number,
  visitors: number,
  leads: number,
  more: Partial<ReportRow> = {},
): ReportRow => ({
  key,
  visits,
  visitors,
  leads,
  conversion: visitors ? leads / visitors : 0,
  downloads: 0,
  whatsapp: 0,
  phone: 0,
  email: 0,
  engagedSeconds: null,
  scrollDepth: null,
  ...more,
})

// Today is 26/11/2026 in São Paulo: the default 30 days are 28/10 to 26/11, compared with
// 28/09 to 27/10.
const NOW = new Date('2026-11-26T15:00:00Z')
const CURRENT = { from: '2026-10-28', to: '2026-11-26' }
const PREVIOUS = { from: '2026-09-28', to: '2026-10-27' }

const FIXTURES: Record<string, Partial<Record<ReportGroup, ReportRow[]>>> = {
  [CURRENT.from]: {
    // 1.600 visitors and 40 leads: 2,5%; 12 downloads, which leave the conversion as it is.
    day: [
      row('2026-11-25', 1000, 800, 15, { downloads: 5 }),
      row('2026-11-26', 1000, 800, 25, { downloads: 7 }),
    ],
    page: [
      row('/', 500, 400, 4, {
        whatsapp: 30,
        phone: 4,
        email: 2,
        engagedSeconds: 41,
        scrollDepth: 55,
        lcpP75: 2436,
        inpP75: 184,
        clsP75: 0.07,
      }),
      // No hard load measured: no speed.
      row('/p/onibus-rodoviarios', 1200, 1000, 25, { lcpP75: null, inpP75: null, clsP75: null }),
      row('/conteudos/lgpd-camera-na-cabine', 300, 200, 11, {
        whatsapp: 5,
        engagedSeconds: 95,
        scrollDepth: 82,
        lcpP75: 4200,
        inpP75: 350,
        clsP75: 0.3,
      }),
    ],
    landing: [row('/conteudos/lgpd-camera-na-cabine', 150, 150, 14, { whatsapp: 9 })],
    campaign: [row('black-friday', 900, 640, 32), row(NO_CAMPAIGN_KEY, 1100, 960, 8)],
    source: [row('google', 700, 500, 9), row('newsletter', 300, 250, 20), row('', 50, 40, 0)],
    // The materials' rows, as by=material answers them: downloads only.
    material: [
      row('ebook-fadiga', 0, 0, 0, { downloads: 4 }),
      row('checklist-lgpd', 0, 0, 0, { downloads: 8 }),
    ],
  },
  [PREVIOUS.from]: {
    // 1.000 visitors and 20 leads: 2%; 8 downloads.
    day: [row('2026-10-01', 1500, 1000, 20, { downloads: 8 })],
  },
}

type Call = { url: URL; authorization: string | null }

let calls: Call[]
let campaignCalls: Array<Call & { method: string; body: unknown }>
let answer: (call: Call) => Promise<Response>

/** Campaigns named in the Studio (the link builder's list); what POST named so far. */
let namedCampaigns: string[] = []

function fixtureAnswer(call: Call): Promise<Response> {
  if (call.url.pathname === '/api/analytics/campaigns')
    return Promise.resolve(Response.json({ campaigns: namedCampaigns }))
  const by = call.url.searchParams.get('by') as ReportGroup
  const from = call.url.searchParams.get('from')!
  const to = call.url.searchParams.get('to')!
  if (call.url.searchParams.get('format') === 'csv')
    return Promise.resolve(
      new Response('key,visits,visitors,leads,conversion\n/,500,400,4,0.01\n', {
        headers: { 'content-type': 'text/csv' },
      }),
    )
  const rows = FIXTURES[from]?.[by] ?? []
  const report: Report = { from, to, by, rows }
  return Promise.resolve(Response.json(report))
}

const fetchDouble = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const call = {
    url: new URL(String(input), 'http://localhost'),
    authorization: new Headers(init?.headers).get('authorization'),
  }
  if (call.url.pathname === '/api/analytics/campaigns') {
    campaignCalls.push({ ...call, method: init?.method ?? 'GET', body: init?.body })
    if (init?.method === 'POST') {
      const { campaign } = JSON.parse(String(init.body)) as { campaign: string }
      namedCampaigns = [campaign, ...namedCampaigns]
      return Response.json({ campaign }, { status: 201 })
    }
    return Response.json({ campaigns: namedCampaigns })
  }
  calls.push(call)
  return answer(call)
})

let root: Root
let container: HTMLDivElement

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(NOW)
  vi.stubGlobal('ResizeObserver', NoResizeObserver)
  vi.stubGlobal('fetch', fetchDouble)
  studioToken = 'editor-token'
  studioRoles = ['editor']
  calls = []
  campaignCalls = []
  namedCampaigns = ['feira-2026']
  answer = fixtureAnswer
  fetchDouble.mockClear()
  container = document.createElement('div')
  document.body.append(container)
  root = createRoot(container)
})

afterEach(async () => {
  await act(async () => root.unmount())
  document.body.replaceChildren()
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

async function render(node: ReactNode) {
  await act(async () => root.render(<ThemeProvider theme={studioTheme}>{node}</ThemeProvider>))
  await settle()
}

/** Lets the fetch double's answers and React's updates run, until nothing is loading. */
async function settle() {
  await act(async () => new Promise((resolve) => setTimeout(resolve, 0)))
  await vi.waitFor(
    async () => {
      await act(async () => new Promise((resolve) => setTimeout(resolve, 0)))
      // (The chart's tooltip is a role="status" too: the loading state is known by its text.)
      if (container.textContent?.includes('Carregando os números')) throw new Error('Still loading')
    },
    { timeout: 20_000, interval: 20 },
  )
}

const text = (element: Element | null | undefined) =>
  (element?.textContent ?? '').replace(/[\u00a0\u202f]/g, ' ').trim()

function button(name: string | RegExp): HTMLButtonElement {
  const found = [...container.querySelectorAll('button')].find((element) => {
    const label = element.getAttribute('aria-label') ?? text(element)
    return typeof name === 'string' ? label === name : name.test(label)
  })
  if (!found) throw new Error(`No button "${name}" in: ${text(container)}`)
  return found
}

const hasButton = (name: string) => {
  try {
    button(name)
    return true
  } catch {
    return false
  }
}

async function click(element: HTMLElement) {
  await act(async () => element.click())
  await settle()
}

/** The rows of the table labelled by the heading `title`, as cell texts. */
function tableRows(title: string): string[][] {
  const heading = [...container.querySelectorAll('h3')].find((element) => text(element) === title)
  if (!heading) throw new Error(`No table "${title}"`)
  const table = container.querySelector(`table[aria-labelledby="${heading.id}"]`)
  if (!table) throw new Error(`No table labelled "${title}"`)
  return [...table.querySelectorAll('tbody tr')].map((tr) =>
    [...tr.querySelectorAll('th, td')].map((cell) => text(cell)),
  )
}

function figure(label: string): string {
  const group = container.querySelector(`[role="group"][aria-label="${label}"]`)
  if (!group) throw new Error(`No figure "${label}"`)
  return text(group)
}

const alert = () => text(container.querySelector('[role="alert"]'))

describe('the Desempenho tool', () => {
  it('asks for the last 30 days and the 30 before, with the editor token', async () => {
    await render(<PerformanceTool />)
    const asked = calls.map((call) => ({
      ...Object.fromEntries(call.url.searchParams),
      path: call.url.pathname,
    }))
    expect(asked).toEqual(
      expect.arrayContaining([
        { path: '/api/analytics', ...CURRENT, by: 'day' },
        { path: '/api/analytics', ...PREVIOUS, by: 'day' },
        { path: '/api/analytics', ...CURRENT, by: 'page' },
        { path: '/api/analytics', ...CURRENT, by: 'landing' },
        { path: '/api/analytics', ...CURRENT, by: 'campaign' },
        { path: '/api/analytics', ...CURRENT, by: 'source' },
        { path: '/api/analytics', ...CURRENT, by: 'variant' },
        { path: '/api/analytics', ...CURRENT, by: 'device' },
        { path: '/api/analytics', ...CURRENT, by: 'material' },
      ]),
    )
    expect(calls).toHaveLength(9)
    expect(calls.every((call) => call.authorization === 'Bearer editor-token')).toBe(true)
    expect(text(container)).toContain('28/10/2026 a 26/11/2026 (30 dias)')
    expect(text(container)).toContain('comparado com 28/09/2026 a 27/10/2026 (30 dias)')
  })

  it('shows the tables by page, entry page, campaign and source, most visitors first, conversion in pt-BR', async () => {
    await render(<PerformanceTool />)
    expect(tableRows('Por página')).toEqual([
      [
        '/p/onibus-rodoviarios',
        '1.200',
        '1.000',
        '25',
        '2,5%',
        '0',
        '0',
        '0',
        '0',
        '—',
        '—',
        '—',
        '—',
        '—',
      ],
      [
        '/',
        '500',
        '400',
        '4',
        '1%',
        '0',
        '30',
        '4',
        '2',
        '41 s',
        '55%',
        // The page's speed, with Google's verdict in Portuguese (issue 67).
        '2.436 ms · bom',
        '184 ms · bom',
        '0,07 · bom',
      ],
      [
        '/conteudos/lgpd-camera-na-cabine',
        '300',
        '200',
        '11',
        '5,5%',
        '0',
        '5',
        '0',
        '0',
        '1 min 35 s',
        '82%',
        '4.200 ms · ruim',
        '350 ms · precisa melhorar',
        '0,30 · ruim',
      ],
    ])
    expect(tableRows('Por página de entrada')).toEqual([
      [
        '/conteudos/lgpd-camera-na-cabine',
        '150',
        '150',
        '14',
        '9,3%',
        '0',
        '9',
        '0',
        '0',
        '—',
        '—',
      ],
    ])
    const head = (title: string) => {
      const heading = [...container.querySelectorAll('h3')].find((h) => text(h) === title)!
      return [...container.querySelectorAll(`table[aria-labelledby="${heading.id}"] thead th`)].map(
        text,
      )
    }
    expect(head('Por página')).toEqual([
      'Página',
      'Visitas',
      'Visitantes',
      'Leads',
      'Conversão',
      'Downloads de materiais',
      'WhatsApp',
      'Telefone',
      'E-mail',
      'Tempo de leitura',
      'Rolagem',
      'LCP (p75)',
      'INP (p75)',
      'CLS (p75)',
    ])
    // Only the pages' table: an entry page's figures are not its own load's.
    expect(head('Por página de entrada')).not.toContain('LCP (p75)')
    expect(tableRows('Por campanha').map((cells) => cells.slice(0, 5))).toEqual([
      ['(sem campanha)', '1.100', '960', '8', '0,8%'],
      ['black-friday', '900', '640', '32', '5%'],
    ])
    expect(tableRows('Por origem').map((cells) => cells.slice(0, 5))).toEqual([
      ['google', '700', '500', '9', '1,8%'],
      ['newsletter', '300', '250', '20', '8%'],
      ['(direto)', '50', '40', '0', '0%'],
    ])
    // The materials (issue 65): the downloads of each, most first, and no visit column to read as
    // zero visits.
    expect(head('Materiais')).toEqual(['Material (identificador)', 'Downloads de materiais'])
    expect(tableRows('Materiais')).toEqual([
      ['checklist-lgpd', '8'],
      ['ebook-fadiga', '4'],
    ])
  })

  it('compares the totals with the previous period', async () => {
    await render(<PerformanceTool />)
    expect(figure('Visitas')).toContain('2.000')
    expect(figure('Visitas')).toContain('+33,3% vs. período anterior (1.500)')
    expect(figure('Visitantes')).toContain('1.600')
    expect(figure('Visitantes')).toContain('+60% vs. período anterior (1.000)')
    expect(figure('Leads')).toContain('+100% vs. período anterior (20)')
    expect(figure('Conversão')).toContain('2,5%')
    expect(figure('Conversão')).toContain('+0,5 p.p. vs. período anterior (2%)')
    expect(figure('Downloads de materiais')).toContain('12')
    expect(figure('Downloads de materiais')).toContain('+50% vs. período anterior (8)')
    expect(container.querySelector('figure figcaption')?.textContent).toBe(
      'Visitantes e leads por dia, 28/10/2026 a 26/11/2026 (30 dias)',
    )
  })

  it('asks again for 7 days when the editor picks them', async () => {
    await render(<PerformanceTool />)
    calls = []
    await click(button('7 dias'))
    expect(button('7 dias').getAttribute('aria-pressed')).toBe('true')
    expect(
      calls.map((call) => [call.url.searchParams.get('from'), call.url.searchParams.get('to')]),
    ).toEqual(
      expect.arrayContaining([
        ['2026-11-20', '2026-11-26'],
        ['2026-11-13', '2026-11-19'],
      ]),
    )
  })

  it('explains a custom period it cannot use and asks for nothing', async () => {
    await render(<PerformanceTool />)
    await click(button('Personalizado'))
    const [from, to] = [...container.querySelectorAll<HTMLInputElement>('input[type="date"]')]
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
    await act(async () => {
      setter.call(from, '2026-11-20')
      from!.dispatchEvent(new Event('input', { bubbles: true }))
      setter.call(to, '2026-11-10')
      to!.dispatchEvent(new Event('input', { bubbles: true }))
    })
    calls = []
    await click(button('Aplicar'))
    expect(alert()).toBe('A data inicial precisa ser igual ou anterior à data final.')
    expect(calls).toEqual([])
  })

  it('downloads a table as CSV, asking with format=csv and the token', async () => {
    await render(<PerformanceTool />)
    const createObjectURL = vi.fn(() => 'blob:desempenho')
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }))
    const clicked: Array<{ href: string; download: string }> = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({ href: this.getAttribute('href') ?? '', download: this.download })
    })
    calls = []
    await click(button('Baixar CSV: por página'))
    await vi.waitFor(() => expect(clicked).toHaveLength(1))
    expect(calls).toHaveLength(1)
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({
      ...CURRENT,
      by: 'page',
      format: 'csv',
    })
    expect(calls[0]!.authorization).toBe('Bearer editor-token')
    expect(createObjectURL).toHaveBeenCalledTimes(1)
    expect(clicked).toEqual([
      { href: 'blob:desempenho', download: 'desempenho-paginas-2026-10-28-a-2026-11-26.csv' },
    ])
    calls = []
    await click(button('Baixar CSV: materiais'))
    await vi.waitFor(() => expect(clicked).toHaveLength(2))
    expect(calls[0]!.url.searchParams.get('by')).toBe('material')
    expect(clicked[1]!.download).toBe('desempenho-materiais-2026-10-28-a-2026-11-26.csv')
  })

  it('says plainly when the site refuses the editor (401), with no figures and no retry', async () => {
    answer = () =>
      Promise.resolve(Response.json({ error: 'Token inválido ou expirado.' }, { status: 401 }))
    await render(<PerformanceTool />)
    expect(alert()).toContain('Sem acesso aos números')
    expect(alert()).toContain('erro 401')
    expect(alert()).toContain('Saia do Studio e entre de novo')
    expect(alert()).toContain('Token inválido ou expirado.')
    expect(container.querySelector('table')).toBeNull()
    expect(hasButton('Tentar de novo')).toBe(false)
  })

  it('tells a 403 from a 401', async () => {
    answer = () => Promise.resolve(new Response('', { status: 403 }))
    await render(<PerformanceTool />)
    expect(alert()).toContain('não tem permissão')
    expect(alert()).toContain('erro 403')
  })

  it('offers a retry after a network failure, and shows the figures once it works', async () => {
    answer = () => Promise.reject(new TypeError('Failed to fetch'))
    await render(<PerformanceTool />)
    expect(alert()).toContain('Não foi possível falar com o site')
    answer = fixtureAnswer
    await click(button('Tentar de novo'))
    expect(container.querySelector('[role="alert"]')).toBeNull()
    expect(tableRows('Por página')[0]?.[0]).toBe('/p/onibus-rodoviarios')
  })

  it('does not draw an answer it does not recognise', async () => {
    answer = () => Promise.resolve(Response.json({ rows: 'nada' }))
    await render(<PerformanceTool />)
    expect(alert()).toContain('formato que o Studio não reconhece')
    expect(hasButton('Tentar de novo')).toBe(true)
  })

  it('says when nothing was counted in the period', async () => {
    answer = (call) =>
      Promise.resolve(
        Response.json({
          from: call.url.searchParams.get('from'),
          to: call.url.searchParams.get('to'),
          by: call.url.searchParams.get('by'),
          rows: [],
        }),
      )
    await render(<PerformanceTool />)
    expect(text(container)).toContain('Nenhuma visita nem lead registrado neste período.')
    expect(container.querySelector('table')).toBeNull()
  })

  it('builds a tagged campaign link to copy (issue 45)', async () => {
    await render(<PerformanceTool />)
    const input = container.querySelector<HTMLInputElement>(
      'input[placeholder="black-friday-2026"]',
    )!
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
    await act(async () => {
      setter.call(input, 'Feira de Transporte')
      input.dispatchEvent(new Event('input', { bubbles: true }))
    })
    expect(text(container)).toContain(
      `${window.location.origin}/?utm_source=newsletter&utm_medium=email&utm_campaign=feira-de-transporte`,
    )
    expect(text(container)).toContain('A campanha será contada como “feira-de-transporte”.')
    // Saved: named on the site with the editor's token, and listed.
    expect(text(container)).toContain('Campanhas salvas')
    await click(button('Salvar campanha'))
    expect(campaignCalls.at(-1)).toMatchObject({
      method: 'POST',
      authorization: 'Bearer editor-token',
      body: JSON.stringify({ campaign: 'Feira de Transporte' }),
    })
    expect(text(container)).toContain('Campanha “Feira de Transporte” salva')
    expect(hasButton('Usar a campanha feira-2026')).toBe(true)
  })

  it('offers a viewer the link but no saving, and explains a 403 on saving as a naming refusal (issue 49)', async () => {
    studioRoles = ['viewer']
    await render(<PerformanceTool />)
    expect(hasButton('Copiar link')).toBe(true)
    expect(hasButton('Salvar campanha')).toBe(false)
    expect(text(container)).toContain('Só quem edita o conteúdo')
    const { saveNamedCampaign } = await import('@/sanity/performance/api')
    const refused = vi.fn(async () =>
      Response.json({ error: 'A sua função só permite ler.' }, { status: 403 }),
    )
    await expect(saveNamedCampaign('x', 'viewer-token', refused)).rejects.toThrow(
      /não permite salvar campanhas \(erro 403\)/,
    )
  })

  it('asks the editor to sign in again when the session has no token', async () => {
    studioToken = undefined
    await render(<PerformanceTool />)
    expect(alert()).toContain('entre de novo')
    expect(calls).toEqual([])
  })
})

describe("a page's Desempenho tab", () => {
  const schemaType = (name: string) => ({ name }) as never
  const doc = (published: string | null, draft?: string) => ({
    published: published ? ({ _id: 'x', slug: { current: published } } as never) : null,
    draft: null,
    historical: null,
    displayed: { slug: { current: draft ?? published ?? undefined } } as never,
  })

  it("shows a campaign page's own days, at its published address", async () => {
    await render(
      <PerformanceView
        document={doc('onibus-rodoviarios')}
        documentId="x"
        options={{}}
        schemaType={schemaType('campaignPage')}
      />,
    )
    expect(calls.map((call) => Object.fromEntries(call.url.searchParams))).toEqual(
      expect.arrayContaining([
        { ...CURRENT, by: 'day', path: '/p/onibus-rodoviarios' },
        { ...PREVIOUS, by: 'day', path: '/p/onibus-rodoviarios' },
      ]),
    )
    expect(calls.map((call) => Object.fromEntries(call.url.searchParams))).toContainEqual({
      ...CURRENT,
      by: 'landing',
      path: '/p/onibus-rodoviarios',
    })
    expect(calls).toHaveLength(3)
    expect(text(container.querySelector('h2'))).toBe('Desempenho de /p/onibus-rodoviarios')
    expect(tableRows('Por dia').map((cells) => cells.slice(0, 5))).toEqual([
      ['25/11/2026', '1.000', '800', '15', '1,9%'],
      ['26/11/2026', '1.000', '800', '25', '3,1%'],
    ])
    expect(tableRows('Como página de entrada')).toBeDefined()
    expect(figure('Conversão')).toContain('+0,5 p.p.')
  })

  it("reads an article's figures at /conteudos/<slug> and says when a draft moves it", async () => {
    await render(
      <PerformanceView
        document={doc('lgpd-camera-na-cabine', 'lgpd-e-camera')}
        documentId="x"
        options={{}}
        schemaType={schemaType('article')}
      />,
    )
    expect(calls[0]!.url.searchParams.get('path')).toBe('/conteudos/lgpd-camera-na-cabine')
    expect(text(container)).toContain('O rascunho muda o endereço para /conteudos/lgpd-e-camera')
  })

  it('has nothing to ask for a page never published', async () => {
    await render(
      <PerformanceView
        document={doc(null, 'nova')}
        documentId="x"
        options={{}}
        schemaType={schemaType('campaignPage')}
      />,
    )
    expect(text(container)).toContain('ainda não foi publicada')
    expect(calls).toEqual([])
  })
})

describe('the experiments in the Desempenho tool (issue 51)', () => {
  const experiment = (
    key: string,
    title: string,
    status: 'running' | 'ended' | 'scheduled',
    goal: 'leads' | 'contacts' = 'leads',
  ) => ({
    key,
    title,
    pagePath: '/p/onibus-rodoviarios',
    goal,
    status,
    visibleFrom: null,
    visibleUntil: null,
    variants: [
      { key: 'controle', label: 'Do embarque ao desembarque' },
      { key: 'fadiga', label: 'Fadiga detectada em tempo real' },
    ],
  })

  /** The rows of the experiment whose heading is `title`, as cell texts. */
  function experimentRows(title: string): string[][] {
    const heading = [...container.querySelectorAll('h4')].find((h) => text(h) === title)
    if (!heading) throw new Error(`No experiment "${title}" in: ${text(container)}`)
    const table = container.querySelector(`table[aria-labelledby="${heading.id}"]`)!
    return [...table.querySelectorAll('tbody tr')].map((tr) =>
      [...tr.querySelectorAll('th, td')].map((cell) => text(cell)),
    )
  }

  it('shows each running and ended experiment: per variant the figures, the chance to beat the default, or not enough data', async () => {
    answer = (call) => {
      if (call.url.searchParams.get('by') !== 'variant') return fixtureAnswer(call)
      const judged = { chanceToBeatControl: null, expectedLoss: null, verdictMessage: null }
      const report: Report = {
        from: CURRENT.from,
        to: CURRENT.to,
        by: 'variant',
        rows: [
          { ...row('titulo-onibus/controle', 700, 600, 12, { whatsapp: 3, phone: 1 }), ...judged },
          {
            ...row('titulo-onibus/fadiga', 700, 610, 24, { email: 2 }),
            chanceToBeatControl: 0.9731,
            expectedLoss: 0.00012,
            verdictMessage: null,
          },
          { ...row('antigo/controle', 90, 80, 2), ...judged },
          {
            ...row('antigo/fadiga', 90, 85, 1),
            ...judged,
            verdictMessage:
              'Ainda não há dados suficientes: cada versão precisa de ao menos 100 visitantes e 5 conversões.',
          },
          { ...row('(sem experimento)', 2000, 1500, 30), ...judged },
        ],
        experiments: [
          experiment('antigo', 'Título antigo', 'ended'),
          experiment('titulo-onibus', 'Título da página de ônibus', 'running'),
          experiment('futuro', 'Título futuro', 'scheduled', 'contacts'),
        ],
      }
      return Promise.resolve(Response.json(report))
    }
    await render(<PerformanceTool />)

    expect(text(container)).toContain('Experimentos')
    // Running first, then ended; a scheduled one has nothing to show yet.
    const titles = [...container.querySelectorAll('h4')].map((h) => text(h))
    expect(titles).toEqual(['Título da página de ônibus', 'Título antigo'])
    expect(experimentRows('Título da página de ônibus')).toEqual([
      ['Do embarque ao desembarque (padrão)', '600', '12', '2%', '4', '—'],
      ['Fadiga detectada em tempo real', '610', '24', '3,9%', '2', '97%', '0,01 p.p.'],
    ])
    expect(experimentRows('Título antigo')).toEqual([
      ['Do embarque ao desembarque (padrão)', '80', '2', '2,5%', '0', '—'],
      [
        'Fadiga detectada em tempo real',
        '85',
        '1',
        '1,2%',
        '0',
        'Ainda não há dados suficientes: cada versão precisa de ao menos 100 visitantes e 5 conversões.',
      ],
    ])
    expect(text(container)).toContain('Em andamento')
    expect(text(container)).toContain('Encerrado')
    expect(text(container)).not.toContain('Título futuro')
  })

  it('says there is not enough data for a variant with no visit in the period', async () => {
    answer = (call) => {
      if (call.url.searchParams.get('by') !== 'variant') return fixtureAnswer(call)
      const report: Report = {
        from: CURRENT.from,
        to: CURRENT.to,
        by: 'variant',
        rows: [],
        experiments: [experiment('titulo-onibus', 'Título da página de ônibus', 'running')],
      }
      return Promise.resolve(Response.json(report))
    }
    await render(<PerformanceTool />)
    const [, fadiga] = experimentRows('Título da página de ônibus')
    expect(fadiga!.at(-1)).toMatch(/^Ainda não há dados suficientes/)
    expect(fadiga!.slice(1, 5)).toEqual(['0', '0', '—', '0'])
  })

  it('shows no experiments section when there is none', async () => {
    await render(<PerformanceTool />)
    expect(container.querySelectorAll('h4')).toHaveLength(0)
    expect(text(container)).not.toContain('Experimentos')
  })
})
