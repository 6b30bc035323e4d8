-- Leads know their page (campaign pages, docs/leads.md): the demo form on a campaign page
-- (/p/<slug>) stores that page's slug in dados_cliente.pagina, so marketing can count the leads
-- each campaign brought (`select pagina, count(*) from dados_cliente group by pagina`). The same
-- slug is written into the combined texts' "Origem" part, beside the UTM tags, for the WhatsApp
-- agent. A request from the home page leaves the column null: its row is the one SPEC fixes.
--
-- Like the first migration: idempotent, safe on tables the WhatsApp agent already created, and it
-- runs unchanged on Supabase, plain PostgreSQL 15+ and PGlite. It adds one nullable column,
-- nothing is dropped or retyped. The combined texts stay well inside their 4000-character bound:
-- "pagina=" and a slug of at most 60 characters add under 70.

alter table public.dados_cliente add column if not exists pagina text;

grant insert (pagina) on table public.dados_cliente to anon;

-- A slug as the Studio allows it (sanity/lib/paths.ts), or nothing. RESTRICTIVE, so no other
-- permissive policy can let anon write anything else there.
drop policy if exists "anon lead page is a slug" on public.dados_cliente;
create policy "anon lead page is a slug" on public.dados_cliente
  as restrictive for insert to anon
  with check (
    pagina is null
    or (char_length(pagina) between 1 and 60 and pagina ~ '^[a-z0-9]+(-[a-z0-9]+)*$')
  );
