import fs from 'node:fs'
import path from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { applyMigrations, queryAsAnon, readMigrations, type Database } from '@/lib/leads/db.mjs'

import { backendLabel, createTestDatabase, sqlStateOf, type TestDatabase } from './helpers/database'

const MIGRATION_SQL = fs.readFileSync(
  path.resolve('supabase/migrations/20261122000000_demo_requests.sql'),
  'utf8',
)
const LEAD_PAGE_SQL = fs.readFileSync(
  path.resolve('supabase/migrations/20261210000000_lead_page.sql'),
  'utf8',
)
const LEAD_DELIVERY_SQL = fs.readFileSync(
  path.resolve('supabase/migrations/20270210000000_lead_delivery.sql'),
  'utf8',
)
const LEAD_DELIVERY_TRUST_SQL = fs.readFileSync(
  path.resolve('supabase/migrations/20270215000000_lead_delivery_trust.sql'),
  'utf8',
)
const REQUEST_KEY_SQL = fs.readFileSync(
  path.resolve('supabase/migrations/20261230000000_lead_request_key.sql'),
  'utf8',
)
const ATTRIBUTION_SQL = fs.readFileSync(
  path.resolve('supabase/migrations/20270201000000_lead_attribution.sql'),
  'utf8',
)
const VARIANT_SQL = fs.readFileSync(
  path.resolve('supabase/migrations/20270310000000_experiment_variant.sql'),
  'utf8',
)
const MATERIALS_SQL = fs.readFileSync(
  path.resolve('supabase/migrations/20270320000000_material_conversions.sql'),
  'utf8',
)
const MATERIAL_DELIVERIES_SQL = fs.readFileSync(
  path.resolve('supabase/migrations/20270320000050_material_deliveries.sql'),
  'utf8',
)
const COURIER_LEAST_PRIVILEGE_SQL = fs.readFileSync(
  path.resolve('supabase/migrations/20270330000000_courier_least_privilege.sql'),
  'utf8',
)
const ANALYTICS_GENERIC_SQL = fs.readFileSync(
  path.resolve('supabase/migrations/20270410000000_analytics_generic.sql'),
  'utf8',
)
const INSERT_DADOS_WITH_VARIANT =
  'insert into public.dados_cliente (nomewpp, telefone, atendimento_ia, variant) values ($1, $2, $3, $4)'
const INSERT_DADOS_WITH_PAGE =
  'insert into public.dados_cliente (nomewpp, telefone, atendimento_ia, pagina) values ($1, $2, $3, $4)'

const INSERT_DADOS =
  'insert into public.dados_cliente (nomewpp, telefone, atendimento_ia) values ($1, $2, $3)'
const INSERT_CHAT =
  'insert into public.chat_messages (nomewpp, phone, user_message, message_type) values ($1, $2, $3, $4)'

async function count(db: Database, table: string): Promise<number> {
  const { rows } = await db.query(`select count(*)::int as n from public.${table}`)
  return Number(rows[0]?.n)
}

/** Inserts as anon must pass, reads and changes must be refused, the bounds must hold. */
function describeAnonRules(setup: () => Database) {
  it('lets anon insert a demo request into both tables', async () => {
    const db = setup()
    const before = [await count(db, 'dados_cliente'), await count(db, 'chat_messages')]
    await queryAsAnon(db, INSERT_DADOS, ['Ana Souza', '5511999998888', 'Empresa: Frota Sul'])
    await queryAsAnon(db, INSERT_CHAT, [
      'Ana Souza',
      '5511999998888',
      'Solicitação de demonstração',
      'contact_form',
    ])
    await queryAsAnon(db, INSERT_DADOS, ['Sem Telefone', null, 'Empresa: Frota Norte'])
    await queryAsAnon(db, INSERT_CHAT, [
      'Sem Telefone',
      null,
      'Solicitação de demonstração',
      'contact_form',
    ])
    expect(await count(db, 'dados_cliente')).toBe(before[0]! + 2)
    expect(await count(db, 'chat_messages')).toBe(before[1]! + 2)
  })

  it('admits the longest values the policy allows', async () => {
    const db = setup()
    await queryAsAnon(db, INSERT_DADOS, ['n'.repeat(120), '123456789012345', 'a'.repeat(4000)])
    await queryAsAnon(db, INSERT_CHAT, [
      'n'.repeat(120),
      '1234567890',
      'u'.repeat(4000),
      'contact_form',
    ])
  })

  it.each(['dados_cliente', 'chat_messages'])(
    'refuses anon reading, changing or deleting %s',
    async (table) => {
      const db = setup()
      const before = await count(db, table)
      expect(await sqlStateOf(queryAsAnon(db, `select * from public.${table}`))).toBe('42501')
      expect(await sqlStateOf(queryAsAnon(db, `select count(*) from public.${table}`))).toBe(
        '42501',
      )
      expect(await sqlStateOf(queryAsAnon(db, `update public.${table} set nomewpp = 'x'`))).toBe(
        '42501',
      )
      expect(await sqlStateOf(queryAsAnon(db, `delete from public.${table}`))).toBe('42501')
      expect(await sqlStateOf(queryAsAnon(db, `truncate public.${table}`))).toBe('42501')
      expect(await count(db, table)).toBe(before)
    },
  )

  it('refuses reading back through insert ... returning', async () => {
    const db = setup()
    expect(
      await sqlStateOf(queryAsAnon(db, `${INSERT_DADOS} returning *`, ['Ana', null, 'Empresa: X'])),
    ).toBe('42501')
  })

  it('lets anon record the campaign page of a lead, and only as a slug', async () => {
    const db = setup()
    const before = await count(db, 'dados_cliente')
    await queryAsAnon(db, INSERT_DADOS_WITH_PAGE, [
      'Ana',
      null,
      'Empresa: X | Origem: pagina=onibus-rodoviarios',
      'onibus-rodoviarios',
    ])
    await queryAsAnon(db, INSERT_DADOS_WITH_PAGE, ['Ana', null, 'Empresa: X', null])
    expect(await count(db, 'dados_cliente')).toBe(before + 2)
    for (const pagina of ['', 'Ônibus', '../x', 'a'.repeat(61), 'a--b']) {
      expect(
        await sqlStateOf(queryAsAnon(db, INSERT_DADOS_WITH_PAGE, ['Ana', null, 'x', pagina])),
        pagina,
      ).toBe('42501')
    }
    expect(await count(db, 'dados_cliente')).toBe(before + 2)
  })

  it("lets anon record a lead's experiment variant, and only as '<slug>/<slug>'", async () => {
    const db = setup()
    const before = await count(db, 'dados_cliente')
    await queryAsAnon(db, INSERT_DADOS_WITH_VARIANT, ['Ana', null, 'x', 'titulo-campanha/fadiga'])
    await queryAsAnon(db, INSERT_DADOS_WITH_VARIANT, ['Ana', null, 'x', null])
    expect(await count(db, 'dados_cliente')).toBe(before + 2)
    for (const variant of [
      '',
      'titulo',
      'Titulo/a',
      'a/b/c',
      '../x',
      'a--b/c',
      `${'a'.repeat(70)}/${'b'.repeat(70)}`,
    ]) {
      expect(
        await sqlStateOf(queryAsAnon(db, INSERT_DADOS_WITH_VARIANT, ['Ana', null, 'x', variant])),
        variant,
      ).toBe('42501')
    }
    expect(await count(db, 'dados_cliente')).toBe(before + 2)
  })

  it('refuses anon writing columns it was not granted', async () => {
    const db = setup()
    expect(
      await sqlStateOf(
        queryAsAnon(
          db,
          `insert into public.dados_cliente (nomewpp, atendimento_ia, created_at) values ('Ana', 'x', '2000-01-01')`,
        ),
      ),
    ).toBe('42501')
  })

  const refusedDados: [string, unknown[]][] = [
    ['a name over 120 characters', ['n'.repeat(121), null, 'x']],
    ['an empty name', ['', null, 'x']],
    ['a missing name', [null, null, 'x']],
    ['a phone with formatting', ['Ana', '(11) 99999-8888', 'x']],
    ['a phone too short', ['Ana', '123456789', 'x']],
    ['a phone too long', ['Ana', '1234567890123456', 'x']],
    ['a combined text over 4000 characters', ['Ana', null, 'a'.repeat(4001)]],
    ['an empty combined text', ['Ana', null, '']],
  ]
  it.each(refusedDados)('refuses a dados_cliente row with %s', async (_, params) => {
    const db = setup()
    const before = await count(db, 'dados_cliente')
    expect(await sqlStateOf(queryAsAnon(db, INSERT_DADOS, params))).toBe('42501')
    expect(await count(db, 'dados_cliente')).toBe(before)
  })

  const refusedChat: [string, unknown[]][] = [
    ['a name over 120 characters', ['n'.repeat(121), null, 'x', 'contact_form']],
    ['a phone with a plus sign', ['Ana', '+5511999998888', 'x', 'contact_form']],
    ['a message over 4000 characters', ['Ana', null, 'u'.repeat(4001), 'contact_form']],
    ['another message_type', ['Ana', null, 'x', 'text']],
    ['no message_type', ['Ana', null, 'x', null]],
  ]
  it.each(refusedChat)('refuses a chat_messages row with %s', async (_, params) => {
    const db = setup()
    const before = await count(db, 'chat_messages')
    expect(await sqlStateOf(queryAsAnon(db, INSERT_CHAT, params))).toBe('42501')
    expect(await count(db, 'chat_messages')).toBe(before)
  })
}

describe(`supabase/migrations on ${backendLabel}`, () => {
  let t: TestDatabase
  beforeAll(async () => {
    t = await createTestDatabase()
    expect(await applyMigrations(t.db)).toEqual((await readMigrations()).map((m) => m.name))
  }, 120_000)
  afterAll(async () => {
    await t?.close()
  })

  describeAnonRules(() => t.db)

  it('can be applied again and again without changing anything', async () => {
    const policies = async () =>
      (
        await t.db.query(
          `select tablename, policyname, permissive, cmd, roles::text, with_check
           from pg_policies where schemaname = 'public' order by 1, 2`,
        )
      ).rows
    const grants = async () =>
      (
        await t.db.query(
          `select table_name, column_name, privilege_type from information_schema.column_privileges
           where grantee = 'anon' and table_schema = 'public' order by 1, 2, 3`,
        )
      ).rows
    // The courier's table rights and functions (issue 66): it reads the queue and writes it only
    // through its functions.
    const courier = async () => ({
      tables: (
        await t.db.query(
          `select table_name, privilege_type from information_schema.table_privileges
           where grantee = 'lead_courier' order by 1, 2`,
        )
      ).rows,
      functions: (
        await t.db.query(
          `select p.proname from pg_proc p where p.pronamespace = 'lead_delivery'::regnamespace
             and has_function_privilege('lead_courier', p.oid, 'execute') order by 1`,
        )
      ).rows.map((row) => row.proname),
    })
    const before = {
      policies: await policies(),
      grants: await grants(),
      courier: await courier(),
      rows: await count(t.db, 'dados_cliente'),
    }
    expect(before.courier.tables).toEqual(
      ['couriers', 'deliveries', 'destinations'].map((table_name) => ({
        table_name,
        privilege_type: 'SELECT',
      })),
    )
    expect(before.courier.functions).toEqual([
      'claim_due',
      'enable_destinations',
      'purge_conversions',
      'purge_expired',
      'record_attempt',
      'report_courier',
    ])
    // dados_cliente's and chat_messages' ten, conversoes_material's one (issue 65), and each's
    // bound on its dimensions (issue 68).
    expect(before.policies).toHaveLength(13)

    for (let round = 0; round < 2; round++) {
      await t.db.exec(MIGRATION_SQL)
      await t.db.exec(LEAD_PAGE_SQL)
      await t.db.exec(REQUEST_KEY_SQL)
      await t.db.exec(ATTRIBUTION_SQL)
      await t.db.exec(LEAD_DELIVERY_SQL)
      await t.db.exec(LEAD_DELIVERY_TRUST_SQL)
      await t.db.exec(VARIANT_SQL)
      await t.db.exec(MATERIALS_SQL)
      await t.db.exec(MATERIAL_DELIVERIES_SQL)
      await t.db.exec(ANALYTICS_GENERIC_SQL)
      // Last, as when pushed: running an older one again gives the courier its old rights back.
      await t.db.exec(COURIER_LEAST_PRIVILEGE_SQL)
    }
    expect(await applyMigrations(t.db)).toEqual([])

    expect(await policies()).toEqual(before.policies)
    expect(await grants()).toEqual(before.grants)
    expect(await courier()).toEqual(before.courier)
    expect(await count(t.db, 'dados_cliente')).toBe(before.rows)
  })
})

describe(`supabase/migrations/20270220000000_analytics_trust.sql on ${backendLabel}`, () => {
  let t: TestDatabase
  beforeAll(async () => {
    t = await createTestDatabase()
    await applyMigrations(t.db)
  }, 120_000)
  afterAll(async () => {
    await t?.close()
  })

  it('can be applied again and again without changing anything, and leaves the writer only its functions (issue 49)', async () => {
    const sql = fs.readFileSync(
      path.resolve('supabase/migrations/20270220000000_analytics_trust.sql'),
      'utf8',
    )
    const shape = async () => ({
      columns: (
        await t.db.query(
          `select table_name, column_name, data_type from information_schema.columns
           where table_schema = 'analytics' order by 1, 2`,
        )
      ).rows,
      grants: (
        await t.db.query(
          `select grantee, table_name, privilege_type from information_schema.table_privileges
           where table_schema = 'analytics' and grantee like 'analytics_%' order by 1, 2, 3`,
        )
      ).rows,
      functions: (
        await t.db.query(
          `select p.proname, r.rolname from pg_proc p cross join pg_roles r
           where p.pronamespace = 'analytics'::regnamespace
             and r.rolname in ('analytics_writer', 'analytics_reader', 'anon')
             and has_function_privilege(r.oid, p.oid, 'execute') order by 1, 2`,
        )
      ).rows,
    })
    const before = await shape()
    expect(before.columns).toContainEqual({
      table_name: 'daily_candidates',
      column_name: 'address_buckets',
      data_type: 'ARRAY',
    })
    expect(before.columns.some((c) => c.table_name === 'daily_promotions')).toBe(true)
    for (let round = 0; round < 2; round++) await t.db.exec(sql)
    expect(await shape()).toEqual(before)
    expect(before.functions).toEqual(
      expect.arrayContaining([
        { proname: 'record_views', rolname: 'analytics_writer' },
        { proname: 'purge_aggregates', rolname: 'analytics_writer' },
      ]),
    )
    expect(before.functions).not.toContainEqual({ proname: 'record_views', rolname: 'anon' })
  })
})

describe(`supabase/migrations over tables the WhatsApp agent made first, on ${backendLabel}`, () => {
  let t: TestDatabase
  beforeAll(async () => {
    t = await createTestDatabase()
    // What a WhatsApp agent project might already hold: serial ids, other columns, some of ours
    // missing, rows, Supabase's default grants to anon and a wide-open policy.
    await t.db.exec(`
      do $$ begin
        if not exists (select from pg_roles where rolname = 'anon') then create role anon nologin; end if;
      exception when duplicate_object or unique_violation then null; end $$;
      create table public.dados_cliente (
        id serial primary key,
        nomewpp varchar(255),
        telefone varchar(50),
        sessionid text default 'x'
      );
      create table public.chat_messages (
        id bigserial primary key,
        created_at timestamp default now(),
        phone text,
        nomewpp text,
        bot_message text,
        user_message text,
        active boolean default true
      );
      insert into public.dados_cliente (nomewpp, telefone) values ('Cliente WhatsApp', '5511911112222');
      insert into public.chat_messages (phone, nomewpp, bot_message, user_message)
        values ('5511911112222', 'Cliente WhatsApp', 'Olá!', 'Oi');
      grant all on public.dados_cliente, public.chat_messages to anon;
      alter table public.dados_cliente enable row level security;
      create policy "open to everyone" on public.dados_cliente for all to public using (true) with check (true);
    `)
    await applyMigrations(t.db)
  }, 120_000)
  afterAll(async () => {
    await t?.close()
  })

  it('keeps the existing rows and columns and adds the missing ones', async () => {
    const columns = async (table: string) =>
      (
        await t.db.query(
          `select column_name from information_schema.columns
           where table_schema = 'public' and table_name = $1`,
          [table],
        )
      ).rows.map((row) => row.column_name)
    expect(await columns('dados_cliente')).toEqual(
      expect.arrayContaining([
        'id',
        'sessionid',
        'created_at',
        'nomewpp',
        'telefone',
        'atendimento_ia',
        'pagina',
      ]),
    )
    expect(await columns('chat_messages')).toEqual(
      expect.arrayContaining([
        'id',
        'bot_message',
        'active',
        'nomewpp',
        'phone',
        'user_message',
        'message_type',
      ]),
    )
    const { rows } = await t.db.query(
      `select nomewpp, telefone from public.dados_cliente where id = 1`,
    )
    expect(rows).toEqual([{ nomewpp: 'Cliente WhatsApp', telefone: '5511911112222' }])
    expect(await count(t.db, 'chat_messages')).toBe(1)
  })

  describeAnonRules(() => t.db)
})
