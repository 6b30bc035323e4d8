-- Experiments (issue 51, docs/experiments.md): each lead stores the variant its visitor saw,
-- '<experiment>/<variant>' (the form's page's, else the visit's entry page's), in a column of its
-- own, and analytics.lead_counts gives it as the column `variant`, the analytics dimension of that
-- name (lib/analytics/measures.mjs; docs/analytics.md "Adding a dimension", step 3). Leads without
-- one count under '(sem experimento)'. The server stores only a variant of an experiment running
-- when the lead came (app/actions/demo-request.ts); lead delivery reads the column by name.
--
-- Like the earlier migrations: idempotent, runs unchanged on Supabase, plain PostgreSQL 15+ and
-- PGlite. A nullable column only; older rows keep it null. lead_counts is otherwise
-- 20270201000100_analytics_reach.sql's, unchanged.

alter table public.dados_cliente add column if not exists variant text;

grant insert (variant) on table public.dados_cliente to anon;

-- Two slugs joined by '/' (lib/attribution-fields.ts cleanVariant), nothing else. RESTRICTIVE, so
-- no permissive policy can widen it.
drop policy if exists "anon lead variant is bounded" on public.dados_cliente;
create policy "anon lead variant is bounded" on public.dados_cliente
  as restrictive for insert to anon
  with check (
    variant is null
    or (char_length(variant) <= 130
      and variant ~ '^[a-z0-9]+(-[a-z0-9]+)*/[a-z0-9]+(-[a-z0-9]+)*$')
  );

drop function if exists analytics.lead_counts(date, date);
create function analytics.lead_counts(first_day date, last_day date)
returns table (day date, page text, landing text, campaign text, source text, variant text,
  leads bigint)
language sql
stable
security definer
set search_path = pg_catalog, public
as $$
  with site_leads as (
    select
      (d.created_at at time zone 'America/Sao_Paulo')::date as day,
      coalesce(
        d.origem_pagina,
        case when d.pagina is null then '/' else '/p/' || d.pagina end
      ) as page,
      d.origem_entrada,
      d.utm_campaign,
      lower(d.utm_source) as utm_source,
      d.referrer_host,
      d.variant,
      -- The site fills origem_pagina on every lead since the columns exist: older rows only
      -- are read back from their text.
      case when d.origem_pagina is null
        then substring(d.atendimento_ia from 'Origem: .*$') end as origin
    from public.dados_cliente d
    where d.atendimento_ia like 'Dados do formulário do site%'
      and d.created_at >= (first_day::timestamp at time zone 'America/Sao_Paulo')
      and d.created_at < ((last_day + 1)::timestamp at time zone 'America/Sao_Paulo')
  )
  select
    day,
    page,
    coalesce(origem_entrada, page),
    coalesce(
      nullif(utm_campaign, ''),
      nullif(substring(origin from 'utm_campaign=«([^»]*)»'), ''),
      '(sem campanha)'
    ),
    coalesce(
      nullif(utm_source, ''),
      nullif(referrer_host, ''),
      nullif(lower(substring(origin from 'utm_source=«([^»]*)»')), ''),
      nullif(lower(substring(origin from 'referrer=«[a-zA-Z][a-zA-Z0-9+.-]*://([^/:?#»]+)')), ''),
      '(direto)'
    ),
    coalesce(nullif(variant, ''), '(sem experimento)'),
    count(*)
  from site_leads
  group by 1, 2, 3, 4, 5, 6
$$;

revoke all on function analytics.lead_counts(date, date) from public;
grant execute on function analytics.lead_counts(date, date) to analytics_reader;
