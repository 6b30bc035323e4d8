-- A lead's attribution as columns of its own (issue 45, docs/analytics.md "Leads joined"): the
-- page the form was sent from, the visit's entry page, its first touch's UTM tags and the
-- external referrer's host. The visit counts join leads by these columns (analytics.lead_counts)
-- instead of parsing the Portuguese text back; the combined texts keep their "Origem: ..." part
-- for the WhatsApp agent, unchanged. Lead delivery (issue 46) reads the same columns by name.
--
-- Like the earlier migrations: idempotent, safe on tables the WhatsApp agent already created,
-- runs unchanged on Supabase, plain PostgreSQL 15+ and PGlite. Nullable columns only; nothing
-- is dropped or retyped, and SPEC's columns are unchanged. Older rows keep them null.

alter table public.dados_cliente add column if not exists origem_pagina text;
alter table public.dados_cliente add column if not exists origem_entrada text;
alter table public.dados_cliente add column if not exists utm_source text;
alter table public.dados_cliente add column if not exists utm_medium text;
alter table public.dados_cliente add column if not exists utm_campaign text;
alter table public.dados_cliente add column if not exists referrer_host text;

grant insert (origem_pagina, origem_entrada, utm_source, utm_medium, utm_campaign, referrer_host)
  on table public.dados_cliente to anon;

-- Paths as the site serves them, tags of at most 100 characters without control characters, a
-- host name's characters: nothing else. RESTRICTIVE, so no permissive policy can widen it.
drop policy if exists "anon lead attribution is bounded" on public.dados_cliente;
create policy "anon lead attribution is bounded" on public.dados_cliente
  as restrictive for insert to anon
  with check (
    (origem_pagina is null
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
  );
