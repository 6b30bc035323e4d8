-- Materials' downloads in the analytics (issue 65, docs/analytics.md "Materials"): a download is a
-- conversion of the page its form was sent from, counted by page, entry page, campaign, source and
-- variant exactly as analytics.lead_counts counts a demo request, plus the material's conversion
-- identifier (the report's by=material). The report joins each column to the dimension of its
-- name (lib/analytics/report-db.mjs), so a dimension added to lead_counts later is added here too.
-- Demo requests stay in lead_counts alone: `leads` and `conversion` keep meaning demo requests.
--
-- Idempotent; runs unchanged on Supabase, plain PostgreSQL 15+ and PGlite. SECURITY DEFINER, like
-- lead_counts: analytics_reader gets counts per day and key, never a row of conversoes_material.

drop function if exists analytics.material_counts(date, date);
create function analytics.material_counts(first_day date, last_day date)
returns table (day date, page text, landing text, campaign text, source text, variant text,
  material text, downloads bigint)
language sql
stable
security definer
set search_path = pg_catalog, public
as $$
  with site_downloads as (
    select
      (c.created_at at time zone 'America/Sao_Paulo')::date as day,
      -- The site always sends the form's path; a row without one (inserted by hand) counts on
      -- the material's own page.
      coalesce(nullif(c.origem_pagina, ''), '/materiais/' || c.material) as page,
      c.origem_entrada,
      c.utm_campaign,
      lower(c.utm_source) as utm_source,
      c.referrer_host,
      c.variant,
      c.identificador
    from public.conversoes_material c
    where c.tipo = 'material'
      and c.created_at >= (first_day::timestamp at time zone 'America/Sao_Paulo')
      and c.created_at < ((last_day + 1)::timestamp at time zone 'America/Sao_Paulo')
  )
  select
    day,
    page,
    coalesce(nullif(origem_entrada, ''), page),
    coalesce(nullif(utm_campaign, ''), '(sem campanha)'),
    coalesce(nullif(utm_source, ''), nullif(referrer_host, ''), '(direto)'),
    coalesce(nullif(variant, ''), '(sem experimento)'),
    identificador,
    count(*)
  from site_downloads
  group by 1, 2, 3, 4, 5, 6, 7
$$;

revoke all on function analytics.material_counts(date, date) from public;
grant execute on function analytics.material_counts(date, date) to analytics_reader;
