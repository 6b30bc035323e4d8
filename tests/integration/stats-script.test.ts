import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

import { afterAll, describe, expect, it } from 'vitest'

import { writeBatch } from '@/lib/analytics/store'
import { composeLeadRecord } from '@/lib/leads/compose'
import { applyMigrations, openPglite, queryAsAnon } from '@/lib/leads/db.mjs'

import { main } from '../../scripts/stats.mjs'
import { seedPgliteFolder } from './helpers/database'
import { runScript } from './helpers/script'

// `npm run stats` (scripts/stats.mjs) on an embedded store: the same figures as the API. Run in
// this process (its `main`), but for the first test, which runs the command itself.

const run = promisify(execFile)
const script = path.resolve('scripts/stats.mjs')
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stats-script-'))
const dataDir = path.join(root, 'leads')

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true })
})

const env: NodeJS.ProcessEnv = { ...process.env, LEADS_DATA_DIR: dataDir }
delete env.DATABASE_URL
delete env.ANALYTICS_DATABASE_URL

async function stats(...args: string[]) {
  const result = await runScript(main, args, { env, cwd: root })
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  return result
}

describe('npm run stats', { timeout: 180_000 }, () => {
  it('says when nothing is counted yet, and exits 2 on a bad option (node)', async () => {
    const { stdout } = await run(process.execPath, [script], { env, cwd: root })
    expect(stdout).toContain('Nenhuma visita contada ainda')
    const bad = await run(process.execPath, [script, '--days', '0'], { env, cwd: root }).catch(
      (error: { code: number; stderr: string }) => error,
    )
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('--days deve ser') })
    // Every bad value: one line in Portuguese naming it and what is accepted, never a stack trace.
    for (const [args, message] of [
      [
        ['--to', 'ontem'],
        '--to deve ser uma data AAAA-MM-DD (por exemplo 2026-11-01), não "ontem".',
      ],
      [
        ['--from', '2026-02-30'],
        '--from deve ser uma data AAAA-MM-DD (por exemplo 2026-11-01), não "2026-02-30".',
      ],
      [
        ['--from', '2026-11-05', '--to', '2026-11-01'],
        '--from (2026-11-05) deve vir antes de --to (2026-11-01), ou ser o mesmo dia.',
      ],
      [
        ['--by', 'pais'],
        '--by deve ser um destes: page, landing, campaign, source, variant, device, material, day; não "pais".',
      ],
      [['--days', '401'], '--days deve ser um número inteiro de 1 a 400, não "401".'],
    ] as const)
      expect(await runScript(main, [...args], { env, cwd: root })).toEqual({
        code: 2,
        stdout: '',
        stderr: `${message}\n`,
      })
    // A mistyped option: one line, no stack trace (scripts/lib/cli-io.mjs, for both commands).
    for (const [name, args] of [
      ['stats', ['--dias', '7']],
      ['leads', ['--limite', '3']],
    ] as const) {
      const typo = await run(process.execPath, [path.resolve(`scripts/${name}.mjs`), ...args], {
        env,
        cwd: root,
      }).catch((error: { code: number; stderr: string }) => error)
      expect(typo).toMatchObject({
        code: 2,
        stderr: `Opção desconhecida: ${args[0]}. Veja --help.\n`,
      })
    }
  })

  it('prints visits, visitors, leads, conversion and downloads by page, campaign and source, and the downloads by material', async () => {
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(
      new Date(),
    )
    seedPgliteFolder(dataDir)
    const db = await openPglite(dataDir)
    try {
      // Already applied on the copy: a no-op that keeps this test true should the template change.
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
        {
          day,
          dimension: 'variant',
          key: 'titulo-campanha/fadiga',
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
        { utm_source: 'google', utm_campaign: 'verao', variant: 'titulo-campanha/fadiga' },
        'frotas',
      )
      const columns = Object.keys(lead.dadosCliente)
      await queryAsAnon(
        db,
        `insert into public.dados_cliente (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
        Object.values(lead.dadosCliente),
      )
      // Two downloads of a material from the campaign page (issue 65), stored as the owner: the
      // form's store is not this test's.
      for (const identificador of ['checklist-lgpd', 'checklist-lgpd'])
        await db.query(
          `insert into public.conversoes_material (material, identificador, nome, email,
             dados_formulario, origem_pagina, utm_source, utm_campaign, variant)
           values ('checklist-lgpd', $1, 'Ana Lima', 'ana@frota.com.br', '{}', '/p/frotas',
             'google', 'verao', 'titulo-campanha/fadiga')`,
          [identificador],
        )
    } finally {
      await db.close()
    }

    const { stdout } = await stats('--days', '7')
    // visits, visitors, leads, conversion, downloads: the downloads leave the conversion at 25%.
    expect(stdout).toMatch(/Por página[\s\S]*\/p\/frotas\s+8\s+4\s+1\s+25%\s+2\s/)
    expect(stdout).toMatch(/Por campanha[\s\S]*verao\s+8\s+4\s+1\s+25%\s+2\s/)
    expect(stdout).toMatch(/Por origem[\s\S]*google\s+8\s+4\s+1\s+25%\s+2\s/)
    // The experiment variants, from the dimension list like the rest (issue 51).
    expect(stdout).toMatch(/Por versão[\s\S]*titulo-campanha\/fadiga\s+8\s+4\s+1\s+25%\s+2\s/)

    // The entry pages and the new columns too (issue 45), the CSV as a pt-BR Excel reads it.
    expect(stdout).toMatch(/Por página de entrada[\s\S]*\/p\/frotas\s+0\s+0\s+1\s+0%\s+2\s/)
    expect(stdout).toMatch(/conv\.\s+downloads\s+whatsapp\s+telefone\s+e-mail\s+leitura\s+rolagem/)
    // The pages' speed (issue 67): none measured here, so a dash, never 0.
    expect(stdout).toMatch(
      /rolagem\s+lcp p75\s+inp p75\s+cls p75\n[-\s]+\n\/p\/frotas\s.*—\s+—\s+—\n/,
    )
    // The materials (issue 65): their downloads alone, a table of the default ones.
    expect(stdout).toMatch(
      /Por material \([^)]*\)\nchave\s+downloads\n-+\s+-+\nchecklist-lgpd\s+2\n/,
    )
    const csv = await stats('--by', 'page', '--csv')
    expect(csv.stdout).toBe(
      '\uFEFFPágina;Visitas;Visitantes;Leads;Conversão;Downloads de materiais;WhatsApp;Telefone;' +
        'E-mail;Tempo médio de leitura (s);Rolagem média (%);LCP p75 (ms);INP p75 (ms);CLS p75\r\n' +
        '/p/frotas;8;4;1;0,25;2;0;0;0;;;;;\r\n',
    )
    const materials = await stats('--by', 'material', '--csv')
    expect(materials.stdout).toBe('\uFEFFMaterial;Downloads de materiais\r\nchecklist-lgpd;2\r\n')
  })
})
