import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

import { afterAll, describe, expect, it } from 'vitest'

import { writeBatch } from '@/lib/analytics/store'
import { composeLeadRecord } from '@/lib/leads/compose'
import { applyMigrations, openPglite, queryAsAnon } from '@/lib/leads/db.mjs'

// `npm run stats` (scripts/stats.mjs) on an embedded store: the same figures as the API.

const run = promisify(execFile)
const script = path.resolve('scripts/stats.mjs')
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stats-script-'))
const dataDir = path.join(root, 'leads')

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true })
})

function stats(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, LEADS_DATA_DIR: dataDir }
  delete env.DATABASE_URL
  delete env.ANALYTICS_DATABASE_URL
  return run(process.execPath, [script, ...args], { env, cwd: root })
}

describe('npm run stats', { timeout: 180_000 }, () => {
  it('says when nothing is counted yet', async () => {
    const { stdout } = await stats()
    expect(stdout).toContain('Nenhuma visita contada ainda')
  })

  it('prints visits, visitors, leads and conversion by page, campaign and source', async () => {
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(
      new Date(),
    )
    const db = await openPglite(dataDir)
    try {
      await applyMigrations(db)
      const hash = (n: number) => n.toString(16).padStart(32, '0')
      await writeBatch(db, '00000000-0000-4000-8000-00000000000a', [
        {
          day,
          dimension: 'page',
          key: '/p/frotas',
          visits: 8,
          visitors: [hash(1), hash(2), hash(3), hash(4)],
        },
        {
          day,
          dimension: 'campaign',
          key: 'verao',
          visits: 8,
          visitors: [hash(1), hash(2), hash(3), hash(4)],
        },
        {
          day,
          dimension: 'source',
          key: 'google',
          visits: 8,
          visitors: [hash(1), hash(2), hash(3), hash(4)],
        },
      ])
      const lead = await composeLeadRecord(
        {
          name: 'Maria Souza',
          email: 'maria@transportadora.com.br',
          company: 'Transportadora Horizonte',
          phone: '(11) 99999-8888',
          fleetSize: '51-100',
          message: '',
        },
        { utm_source: 'google', utm_campaign: 'verao' },
        'frotas',
      )
      const columns = Object.keys(lead.dadosCliente)
      await queryAsAnon(
        db,
        `insert into public.dados_cliente (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
        Object.values(lead.dadosCliente),
      )
    } finally {
      await db.close()
    }

    const { stdout } = await stats('--days', '7')
    expect(stdout).toMatch(/Por página[\s\S]*\/p\/frotas\s+8\s+4\s+1\s+25%/)
    expect(stdout).toMatch(/Por campanha[\s\S]*verao\s+8\s+4\s+1\s+25%/)
    expect(stdout).toMatch(/Por origem[\s\S]*google\s+8\s+4\s+1\s+25%/)

    // The entry pages and the new columns too (issue 45), the CSV as a pt-BR Excel reads it.
    expect(stdout).toMatch(/Por página de entrada[\s\S]*\/p\/frotas\s+0\s+0\s+1\s+0%/)
    expect(stdout).toMatch(/whatsapp\s+telefone\s+e-mail\s+leitura\s+rolagem/)
    const csv = await stats('--by', 'page', '--csv')
    expect(csv.stdout).toBe(
      '\uFEFFPágina;Visitas;Visitantes;Leads;Conversão;WhatsApp;Telefone;E-mail;' +
        'Tempo médio de leitura (s);Rolagem média (%)\r\n/p/frotas;8;4;1;0,25;0;0;0;;\r\n',
    )
  })
})
