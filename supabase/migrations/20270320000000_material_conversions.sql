-- Materials' conversions (issue 65, docs/leads.md "Materials"): a visitor who takes an e-book or a
-- checklist behind a material's short form. Not a demo request: their rows stay out of
-- dados_cliente and chat_messages, which the WhatsApp agent works from, and SPEC's two inserts are
-- unchanged. One row per download form sent, with the same attribution columns as a lead and the
-- form as the server validated it (dados_formulario, lib/validations/material-request-fields.ts).
--
-- Idempotent; runs unchanged on Supabase, plain PostgreSQL 15+ and PGlite. anon (the site's key)
-- may insert the columns below and read nothing back.

create table if not exists public.conversoes_material (
  id bigint generated always as identity primary key,
  conversao_uid uuid not null default gen_random_uuid() unique,
  created_at timestamptz not null default now(),
  -- The kind of conversion: one today, a column so that the next kind needs no new table.
  tipo text not null default 'material' check (tipo in ('material')),
  material text not null,
  identificador text not null,
  titulo_material text,
  nome text not null,
  email text not null,
  telefone text,
  dados_formulario jsonb not null,
  consentimento_email boolean not null default false,
  avisar_comercial boolean not null default false,
  origem_pagina text,
  origem_entrada text,
  utm_source text,
  utm_medium text,
  utm_campaign text,
  referrer_host text,
  variant text,
  chave_envio text unique
);

alter table public.conversoes_material enable row level security;
revoke all on table public.conversoes_material from anon;
grant insert (tipo, material, identificador, titulo_material, nome, email, telefone,
  dados_formulario, consentimento_email, avisar_comercial, origem_pagina, origem_entrada,
  utm_source, utm_medium, utm_campaign, referrer_host, variant, chave_envio)
  on table public.conversoes_material to anon;

-- The same bounds as a lead's (20261122, 20270201, 20270215, 20270310): a slug, a conversion
-- identifier, a name, an e-mail, a phone of digits, a bounded object, paths and tags.
drop policy if exists "anon inserts material conversions" on public.conversoes_material;
create policy "anon inserts material conversions" on public.conversoes_material
  as permissive for insert to anon
  with check (
    material ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(material) <= 96
    and identificador ~ '^[a-z0-9]+([-_][a-z0-9]+)*$' and char_length(identificador) <= 100
    and (titulo_material is null or char_length(titulo_material) <= 200)
    and char_length(nome) between 1 and 120
    and char_length(email) between 3 and 254 and email like '%@%'
    and (telefone is null or telefone ~ '^[0-9]{10,15}$')
    and jsonb_typeof(dados_formulario) = 'object'
    and char_length(dados_formulario::text) <= 8000
    and (origem_pagina is null
      or (char_length(origem_pagina) <= 300 and origem_pagina ~ '^/[A-Za-z0-9._~/%-]*$'
        and origem_pagina !~ '//'))
    and (origem_entrada is null
      or (char_length(origem_entrada) <= 300 and origem_entrada ~ '^/[A-Za-z0-9._~/%-]*$'
        and origem_entrada !~ '//'))
    and (utm_source is null or (char_length(utm_source) between 1 and 100
      and utm_source !~ '[[:cntrl:]]'))
    and (utm_medium is null or (char_length(utm_medium) between 1 and 100
      and utm_medium !~ '[[:cntrl:]]'))
    and (utm_campaign is null or (char_length(utm_campaign) between 1 and 100
      and utm_campaign !~ '[[:cntrl:]]'))
    and (referrer_host is null or referrer_host ~ '^[a-z0-9.-]{1,100}$')
    and (variant is null
      or (char_length(variant) <= 130
        and variant ~ '^[a-z0-9]+(-[a-z0-9]+)*/[a-z0-9]+(-[a-z0-9]+)*$'))
    and (chave_envio is null or char_length(chave_envio) <= 100)
  );

create index if not exists conversoes_material_created_idx
  on public.conversoes_material (created_at);
