-- Dashboard budget (ARCHITECTURE "Budgets": every figure from an index or a maintained aggregate in ≤ 50 ms at
-- 100,000 subscribers and 1,000,000 clicks). The figure functions of 20260108000200_figures.sql asked the
-- security-definer private.sees_pair() about every row they summed; a definer function is never inlined, so each
-- row paid a function call and an is_admin() lookup (~0.1 ms: 550 ms for a 30-day chart). Here the caller's rights
-- are resolved once per call (private.figures_viewer: everything, or the ids of their campaigns and sources) and
-- the rows are filtered with plain conditions that the indexes and the maintained daily tables serve.
-- Signatures, results, ordering and access rules are unchanged: the campaign's advertiser, the source's publisher
-- and admins (at aal2) or the service role see a (campaign, source) row.
--
-- The functions run with plan_cache_mode = force_custom_plan: their optional filters ("p_campaign_id is null or
-- campaign_id = p_campaign_id") and the caller's id lists only reach an index when the plan is made with the
-- values of this call; a cached generic plan would scan the whole table for every caller.

-- Who is asking, resolved once: admins and the service role see every row; anyone else the rows of their
-- campaigns (as advertiser) and of their sources (as publisher).
create function private.figures_viewer(out sees_all boolean, out campaign_ids uuid[], out source_ids uuid[])
language sql stable
security definer
set search_path = ''
as $$
  select v.sees_all,
    case when v.sees_all then '{}'::uuid[] else array(select c.id from public.campaigns c where c.advertiser_id = v.me) end,
    case when v.sees_all then '{}'::uuid[] else array(select s.id from public.audience_sources s where s.publisher_id = v.me) end
  from (select (select auth.uid()) as me, public.is_admin() or auth.role() = 'service_role' as sees_all) v
$$;
comment on function private.figures_viewer() is
  'Internal: the caller''s scope for figures, resolved once per call: all rows (admin at aal2, service role), else the ids of the campaigns they advertise and of the sources they publish.';
revoke execute on function private.figures_viewer() from public, anon, authenticated, service_role;

-- Daily rows reached by campaign and day (the advertiser's chart and per-source table); the primary key
-- (campaign, source, day) would read every day of the campaign. Keys only, no INCLUDE of the counters: every click,
-- view and conversion updates these rows, and an index holding the counters would turn each of those updates from a
-- HOT update into one that writes every index (the click path has its own budget). A source's days already have
-- campaign_source_daily_stats_source_idx (audience_source_id, day).
create index campaign_source_daily_stats_campaign_day_idx on public.campaign_source_daily_stats (campaign_id, day);

create or replace function public.campaign_source_figures(
  p_campaign_id uuid default null, p_source_id uuid default null, p_from date default null, p_to date default null
)
returns table (
  campaign_id uuid, campaign_name text, campaign_status text, source_id uuid, source_name text,
  views bigint, clicks bigint, conversions bigint, ctr numeric, spend numeric, earnings numeric
)
language plpgsql stable
security definer
set search_path = ''
set plan_cache_mode = force_custom_plan
as $$
declare
  v record;
begin
  perform private.check_figures_range(p_from, p_to);
  perform private.check_figures_scope(p_campaign_id, p_source_id);
  select * into v from private.figures_viewer();
  if p_from is null then
    return query
    select c.id, c.name, c.status, s.id, s.name, st.total_views::bigint, st.total_clicks::bigint,
      st.total_conversions::bigint,
      (case when st.total_clicks > 0 then round(st.total_conversions * 100.0 / st.total_clicks, 2) else 0 end)::numeric(7, 2),
      st.total_spend, st.total_earnings
    from public.campaign_source_stats st
    join public.campaigns c on c.id = st.campaign_id
    join public.audience_sources s on s.id = st.audience_source_id
    where (p_campaign_id is null or st.campaign_id = p_campaign_id)
      and (p_source_id is null or st.audience_source_id = p_source_id)
      and (v.sees_all or st.campaign_id = any (v.campaign_ids) or st.audience_source_id = any (v.source_ids))
    order by st.total_conversions desc, st.total_clicks desc, s.name, c.name;
  else
    return query
    select c.id, c.name, c.status, s.id, s.name, d.v, d.k, d.n,
      (case when d.k > 0 then round(d.n * 100.0 / d.k, 2) else 0 end)::numeric(7, 2), d.sp, d.ea
    from (
      select x.campaign_id, x.audience_source_id, sum(x.views)::bigint v, sum(x.clicks)::bigint k,
        sum(x.conversions)::bigint n, sum(x.spend)::numeric(12, 2) sp, sum(x.earnings)::numeric(12, 2) ea
      from public.campaign_source_daily_stats x
      where (p_campaign_id is null or x.campaign_id = p_campaign_id)
        and (p_source_id is null or x.audience_source_id = p_source_id)
        and x.day between p_from and p_to
        and (v.sees_all or x.campaign_id = any (v.campaign_ids) or x.audience_source_id = any (v.source_ids))
      group by 1, 2
    ) d
    join public.campaigns c on c.id = d.campaign_id
    join public.audience_sources s on s.id = d.audience_source_id
    order by d.n desc, d.k desc, s.name, c.name;
  end if;
end
$$;

create or replace function public.daily_figures(
  p_campaign_id uuid default null, p_source_id uuid default null, p_from date default null, p_to date default null
)
returns table (day date, views bigint, clicks bigint, conversions bigint, spend numeric, earnings numeric)
language plpgsql stable
security definer
set search_path = ''
set plan_cache_mode = force_custom_plan
as $$
declare
  d_to date := coalesce(p_to, private.utc_day(now()));
  d_from date := coalesce(p_from, coalesce(p_to, private.utc_day(now())) - 29);
  v record;
begin
  perform private.check_figures_range(p_from, p_to);
  perform private.check_figures_scope(p_campaign_id, p_source_id);
  select * into v from private.figures_viewer();
  return query
  select g.day::date, coalesce(x.views, 0)::bigint, coalesce(x.clicks, 0)::bigint,
    coalesce(x.conversions, 0)::bigint, coalesce(x.spend, 0)::numeric(12, 2), coalesce(x.earnings, 0)::numeric(12, 2)
  from generate_series(d_from, d_to, interval '1 day') g(day)
  left join (
    select dd.day, sum(dd.views) views, sum(dd.clicks) clicks, sum(dd.conversions) conversions, sum(dd.spend) spend,
      sum(dd.earnings) earnings
    from public.campaign_source_daily_stats dd
    where (p_campaign_id is null or dd.campaign_id = p_campaign_id)
      and (p_source_id is null or dd.audience_source_id = p_source_id)
      and dd.day between d_from and d_to
      and (v.sees_all or dd.campaign_id = any (v.campaign_ids) or dd.audience_source_id = any (v.source_ids))
    group by dd.day
  ) x on x.day = g.day::date
  order by g.day;
end
$$;

create or replace function public.not_counted_figures(
  p_campaign_id uuid default null, p_source_id uuid default null, p_from date default null, p_to date default null
)
returns table (kind text, reason text, label text, total bigint)
language plpgsql stable
security definer
set search_path = ''
set plan_cache_mode = force_custom_plan
as $$
declare
  v record;
begin
  perform private.check_figures_range(p_from, p_to);
  perform private.check_figures_scope(p_campaign_id, p_source_id);
  select * into v from private.figures_viewer();
  return query
  select n.kind, n.reason, r.label, sum(n.total)::bigint
  from public.not_counted_daily n
  join public.not_counted_reasons r on r.code = n.reason
  where (p_from is null or n.day between p_from and p_to)
    and (p_source_id is null or n.audience_source_id = p_source_id)
    -- A campaign's clicks are those attached to it; without a campaign, every click on the source(s).
    and (p_campaign_id is null or n.campaign_id = p_campaign_id)
    and (p_campaign_id is not null or n.kind = 'subscription' or n.campaign_id is null)
    -- Rows without a campaign (every click on a source) are the publisher's; the others the pair's.
    and (v.sees_all or n.audience_source_id = any (v.source_ids)
      or (n.campaign_id is not null and n.campaign_id = any (v.campaign_ids)))
  group by n.kind, n.reason, r.label, r.position
  having sum(n.total) <> 0
  order by n.kind, r.position;
end
$$;

-- The sees_pair() per-row check is gone from every figure function.
drop function private.sees_pair(uuid, uuid);
