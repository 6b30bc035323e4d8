-- Demo requests from the site's contact form (SPEC sections 6 and 7).
--
-- The site writes with the public anon key: one row in dados_cliente, then one in chat_messages.
-- anon may insert those rows and nothing else: it cannot read, change or delete any row.
--
-- Runs unchanged on Supabase (`supabase db push`), on plain PostgreSQL 15+ and on PGlite (the
-- embedded store and the tests). It is idempotent, and safe where the WhatsApp agent that reads
-- these tables already created them: tables are only created when missing, and only the columns
-- the site writes (plus created_at) are added when missing. Nothing is dropped or retyped.

-- Supabase ships the anon role; plain PostgreSQL and PGlite do not. Roles are cluster-wide, so two
-- databases migrated at once can race to create it: the loser's error is swallowed.
do $$
begin
  if not exists (select from pg_catalog.pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
exception
  when duplicate_object or unique_violation then null;
end
$$;

create table if not exists public.dados_cliente (
  id bigint generated always as identity primary key,
  created_at timestamptz not null default now(),
  nomewpp text,
  telefone text,
  atendimento_ia text
);

alter table public.dados_cliente add column if not exists created_at timestamptz not null default now();
alter table public.dados_cliente add column if not exists nomewpp text;
alter table public.dados_cliente add column if not exists telefone text;
alter table public.dados_cliente add column if not exists atendimento_ia text;

create table if not exists public.chat_messages (
  id bigint generated always as identity primary key,
  created_at timestamptz not null default now(),
  nomewpp text,
  phone text,
  user_message text,
  message_type text
);

alter table public.chat_messages add column if not exists created_at timestamptz not null default now();
alter table public.chat_messages add column if not exists nomewpp text;
alter table public.chat_messages add column if not exists phone text;
alter table public.chat_messages add column if not exists user_message text;
alter table public.chat_messages add column if not exists message_type text;

alter table public.dados_cliente enable row level security;
alter table public.chat_messages enable row level security;

-- Supabase's default privileges give anon select, update, delete... on every new public table.
revoke all on table public.dados_cliente from anon;
revoke all on table public.chat_messages from anon;
grant insert (nomewpp, telefone, atendimento_ia) on table public.dados_cliente to anon;
grant insert (nomewpp, phone, user_message, message_type) on table public.chat_messages to anon;

-- Identity columns draw their value without a sequence privilege, but a table the WhatsApp agent
-- made may use serial/bigserial, whose nextval() anon must be allowed to call.
do $$
declare
  seq text;
begin
  for seq in
    select distinct pg_catalog.pg_get_serial_sequence(format('public.%I', c.table_name), c.column_name)
    from information_schema.columns c
    where c.table_schema = 'public'
      and c.table_name in ('dados_cliente', 'chat_messages')
      and pg_catalog.pg_get_serial_sequence(format('public.%I', c.table_name), c.column_name) is not null
  loop
    execute format('grant usage on sequence %s to anon', seq);
  end loop;
end
$$;

-- Length bounds, in characters (char_length counts code points; JavaScript's .length counts UTF-16
-- units, never fewer, so a value within the zod limits is within these).
--   nomewpp: the name, zod max 120, at least 1 after trimming.
--   telefone / phone: NULL or digits with the country code as WhatsApp writes them, 10 to 15
--     digits (E.164 allows at most 15).
--   atendimento_ia / user_message: the combined texts (lib/leads/compose.ts), at most 4000:
--     company 120 + e-mail 254 + message 2000 + fleet-size label 20 = 2394 of visitor text,
--     + the Origem part: utm_source 100 + utm_medium 100 + utm_campaign 100 + referrer 200 = 500,
--     + labels and separators (about 160, the user_message heading included) = about 3060 at most.
--     4000 leaves room for a new label without letting megabytes through.
-- message_type is pinned to 'contact_form': anon cannot pose as the WhatsApp agent's messages.
--
-- Each table gets the permissive policy that lets anon insert, and the same check as a RESTRICTIVE
-- policy: should another permissive insert policy exist (made for the WhatsApp agent, say), it
-- cannot widen what anon may write.
drop policy if exists "anon inserts demo requests" on public.dados_cliente;
create policy "anon inserts demo requests" on public.dados_cliente
  as permissive for insert to anon
  with check (
    char_length(nomewpp) between 1 and 120
    and (telefone is null or telefone ~ '^[0-9]{10,15}$')
    and char_length(atendimento_ia) between 1 and 4000
  );

drop policy if exists "anon demo requests are bounded" on public.dados_cliente;
create policy "anon demo requests are bounded" on public.dados_cliente
  as restrictive for insert to anon
  with check (
    char_length(nomewpp) between 1 and 120
    and (telefone is null or telefone ~ '^[0-9]{10,15}$')
    and char_length(atendimento_ia) between 1 and 4000
  );

drop policy if exists "anon inserts demo requests" on public.chat_messages;
create policy "anon inserts demo requests" on public.chat_messages
  as permissive for insert to anon
  with check (
    char_length(nomewpp) between 1 and 120
    and (phone is null or phone ~ '^[0-9]{10,15}$')
    and char_length(user_message) between 1 and 4000
    and message_type = 'contact_form'
  );

drop policy if exists "anon demo requests are bounded" on public.chat_messages;
create policy "anon demo requests are bounded" on public.chat_messages
  as restrictive for insert to anon
  with check (
    char_length(nomewpp) between 1 and 120
    and (phone is null or phone ~ '^[0-9]{10,15}$')
    and char_length(user_message) between 1 and 4000
    and message_type = 'contact_form'
  );
