-- A retried demo request is stored once (issue 27, docs/security.md "No duplicate leads").
--
-- The form gets a random key when it is shown; the server stores a digest of it (64 hex digits)
-- in chave_envio on both rows. A unique index refuses a second row with the same key, so a retry
-- of the same submission (the visitor pressed send again after a time-out, when the first attempt
-- had in fact been committed) gets unique_violation (23505), which the site reads as "already
-- stored" and answers as a success. A retry after only the first row was stored still stores the
-- second one. Rows without a key (older rows, the WhatsApp agent's own) are not concerned: NULLs
-- never collide in a unique index.
--
-- Like the earlier migrations: idempotent, safe on tables the WhatsApp agent already created,
-- runs unchanged on Supabase, plain PostgreSQL 15+ and PGlite. One nullable column per table;
-- nothing is dropped or retyped, and SPEC's columns are unchanged.

alter table public.dados_cliente add column if not exists chave_envio text;
alter table public.chat_messages add column if not exists chave_envio text;

create unique index if not exists dados_cliente_chave_envio_key
  on public.dados_cliente (chave_envio);
create unique index if not exists chat_messages_chave_envio_key
  on public.chat_messages (chave_envio);

grant insert (chave_envio) on table public.dados_cliente to anon;
grant insert (chave_envio) on table public.chat_messages to anon;

-- A SHA-256 digest in hex, or nothing. RESTRICTIVE, so no other permissive policy can widen it.
drop policy if exists "anon request key is a digest" on public.dados_cliente;
create policy "anon request key is a digest" on public.dados_cliente
  as restrictive for insert to anon
  with check (chave_envio is null or chave_envio ~ '^[0-9a-f]{64}$');

drop policy if exists "anon request key is a digest" on public.chat_messages;
create policy "anon request key is a digest" on public.chat_messages
  as restrictive for insert to anon
  with check (chave_envio is null or chave_envio ~ '^[0-9a-f]{64}$');
