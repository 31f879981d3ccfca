-- One source of figures: the advertiser's analytics, the publisher's stats and the admin's views all call
-- these functions, so the same campaign and source give the same numbers to every role. Each one sees the
-- rows of campaigns the caller owns, of sources the caller owns, or everything for an admin at aal2
-- (public.is_admin()); asking for someone else's campaign or source is refused. Without a date range the
-- totals come from campaign_source_stats; with one, from the per-day aggregates (the same events).

create function private.check_figures_range(p_from date, p_to date)
returns void
language plpgsql immutable
set search_path = ''
as $$
begin
  if (p_from is null) <> (p_to is null) then
    raise exception 'Pick both a start and an end date' using errcode = '22023';
  end if;
  if p_from > p_to then
    raise exception 'The start date must be on or before the end date' using errcode = '22023';
  end if;
  if p_to - p_from > 366 then
    raise exception 'Pick a date range of one year or less' using errcode = '22023';
  end if;
end
$$;
comment on function private.check_figures_range(date, date) is 'Internal: a date range is both ends or none, in order, and at most a year.';
revoke execute on function private.check_figures_range(date, date) from public, anon, authenticated, service_role;

-- May the caller see figures of this campaign and/or source? Admins everything; otherwise the campaign must be
-- theirs, or the source must be theirs (a publisher looking at one campaign sees only their sources' rows).
create function private.check_figures_scope(p_campaign_id uuid, p_source_id uuid)
returns void
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
begin
  if public.is_admin() or auth.role() = 'service_role' then
    return;
  end if;
  if me is null then
    raise exception 'Sign in to see figures' using errcode = '42501';
  end if;
  if p_source_id is not null
     and not exists (select 1 from public.audience_sources where id = p_source_id and publisher_id = me)
     and not exists (select 1 from public.campaigns where id = p_campaign_id and advertiser_id = me) then
    raise exception 'You can only see figures of your own campaigns and sources' using errcode = '42501';
  end if;
  if p_campaign_id is not null and p_source_id is null
     and not exists (select 1 from public.campaigns where id = p_campaign_id and advertiser_id = me)
     and not exists (select 1 from public.audience_sources where publisher_id = me) then
    raise exception 'You can only see figures of your own campaigns and sources' using errcode = '42501';
  end if;
end
$$;
comment on function private.check_figures_scope(uuid, uuid) is 'Internal: refuses figures of a campaign or source the caller neither owns nor administers.';
revoke execute on function private.check_figures_scope(uuid, uuid) from public, anon, authenticated, service_role;

-- Whether a (campaign, source) row is the caller's to see.
create function private.sees_pair(p_campaign_advertiser uuid, p_source_publisher uuid)
returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select public.is_admin() or auth.role() = 'service_role'
      or p_campaign_advertiser = (select auth.uid()) or p_source_publisher = (select auth.uid())
$$;
comment on function private.sees_pair(uuid, uuid) is 'Internal: the campaign''s advertiser, the source''s publisher and admins see a (campaign, source) row.';
revoke execute on function private.sees_pair(uuid, uuid) from public, anon, authenticated, service_role;

create function public.campaign_source_figures(
  p_campaign_id uuid default null, p_source_id uuid default null, p_from date default null, p_to date default null
)
returns table (
  campaign_id uuid, campaign_name text, campaign_status text, source_id uuid, source_name text,
  views bigint, clicks bigint, conversions bigint, ctr numeric, spend numeric, earnings numeric
)
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  perform private.check_figures_range(p_from, p_to);
  perform private.check_figures_scope(p_campaign_id, p_source_id);
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
      and private.sees_pair(c.advertiser_id, s.publisher_id)
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
      group by 1, 2
    ) d
    join public.campaigns c on c.id = d.campaign_id
    join public.audience_sources s on s.id = d.audience_source_id
    where private.sees_pair(c.advertiser_id, s.publisher_id)
    order by d.n desc, d.k desc, s.name, c.name;
  end if;
end
$$;
comment on function public.campaign_source_figures(uuid, uuid, date, date) is
  'Figures per (campaign, source) — views, clicks, conversions, CTR (conversions per 100 clicks), spend, earnings — for the caller''s campaigns, the caller''s sources, or (admins) any; all time, or summed over a date range of at most a year.';
revoke execute on function public.campaign_source_figures(uuid, uuid, date, date) from public, anon, authenticated;
grant execute on function public.campaign_source_figures(uuid, uuid, date, date) to authenticated, service_role;

create function public.daily_figures(
  p_campaign_id uuid default null, p_source_id uuid default null, p_from date default null, p_to date default null
)
returns table (day date, views bigint, clicks bigint, conversions bigint, spend numeric, earnings numeric)
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  d_to date := coalesce(p_to, private.utc_day(now()));
  d_from date := coalesce(p_from, coalesce(p_to, private.utc_day(now())) - 29);
begin
  perform private.check_figures_range(p_from, p_to);
  perform private.check_figures_scope(p_campaign_id, p_source_id);
  return query
  select g.day::date, coalesce(sum(x.views), 0)::bigint, coalesce(sum(x.clicks), 0)::bigint,
    coalesce(sum(x.conversions), 0)::bigint, coalesce(sum(x.spend), 0)::numeric(12, 2),
    coalesce(sum(x.earnings), 0)::numeric(12, 2)
  from generate_series(d_from, d_to, interval '1 day') g(day)
  left join (
    select dd.day, dd.views, dd.clicks, dd.conversions, dd.spend, dd.earnings
    from public.campaign_source_daily_stats dd
    join public.campaigns c on c.id = dd.campaign_id
    join public.audience_sources s on s.id = dd.audience_source_id
    where (p_campaign_id is null or dd.campaign_id = p_campaign_id)
      and (p_source_id is null or dd.audience_source_id = p_source_id)
      and dd.day between d_from and d_to
      and private.sees_pair(c.advertiser_id, s.publisher_id)
  ) x on x.day = g.day::date
  group by g.day
  order by g.day;
end
$$;
comment on function public.daily_figures(uuid, uuid, date, date) is
  'Per UTC day, every day of the range (default: the last 30 days): views, clicks, conversions, spend and earnings of the (campaign, source) rows the caller may see, filtered by campaign and/or source.';
revoke execute on function public.daily_figures(uuid, uuid, date, date) from public, anon, authenticated;
grant execute on function public.daily_figures(uuid, uuid, date, date) to authenticated, service_role;

create function public.not_counted_figures(
  p_campaign_id uuid default null, p_source_id uuid default null, p_from date default null, p_to date default null
)
returns table (kind text, reason text, label text, total bigint)
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  perform private.check_figures_range(p_from, p_to);
  perform private.check_figures_scope(p_campaign_id, p_source_id);
  return query
  select n.kind, n.reason, r.label, sum(n.total)::bigint
  from public.not_counted_daily n
  join public.not_counted_reasons r on r.code = n.reason
  join public.audience_sources s on s.id = n.audience_source_id
  left join public.campaigns c on c.id = n.campaign_id
  where (p_from is null or n.day between p_from and p_to)
    and (p_source_id is null or n.audience_source_id = p_source_id)
    -- A campaign's clicks are those attached to it; without a campaign, every click on the source(s).
    and case when p_campaign_id is not null then n.campaign_id = p_campaign_id
             when n.kind = 'click' then n.campaign_id is null
             else true end
    and (case when n.campaign_id is null then public.is_admin() or auth.role() = 'service_role' or s.publisher_id = (select auth.uid())
              else private.sees_pair(c.advertiser_id, s.publisher_id) end)
  group by n.kind, n.reason, r.label, r.position
  having sum(n.total) <> 0
  order by n.kind, r.position;
end
$$;
comment on function public.not_counted_figures(uuid, uuid, date, date) is
  'What did not count, by kind (click, subscription) and reason with its label: for a campaign, the clicks attached to it and its subscriptions; for a source alone, every click on it and its subscriptions.';
revoke execute on function public.not_counted_figures(uuid, uuid, date, date) from public, anon, authenticated;
grant execute on function public.not_counted_figures(uuid, uuid, date, date) to authenticated, service_role;

create function public.source_figures(p_source_id uuid default null, p_from date default null, p_to date default null)
returns table (
  source_id uuid, source_name text, source_status text, clicks bigint, counted_clicks bigint, not_counted_clicks bigint,
  subscriptions bigint, confirmations bigint, conversions bigint, earnings numeric
)
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  perform private.check_figures_range(p_from, p_to);
  perform private.check_figures_scope(null, p_source_id);
  return query
  select s.id, s.name, s.status, coalesce(sum(d.clicks), 0)::bigint, coalesce(sum(d.counted_clicks), 0)::bigint,
    coalesce(sum(d.clicks - d.counted_clicks), 0)::bigint, coalesce(sum(d.subscriptions), 0)::bigint, coalesce(sum(d.confirmations), 0)::bigint,
    coalesce(sum(d.conversions), 0)::bigint, coalesce(sum(d.earnings), 0)::numeric(12, 2)
  from public.audience_sources s
  left join public.source_daily_stats d on d.audience_source_id = s.id and (p_from is null or d.day between p_from and p_to)
  where (p_source_id is null or s.id = p_source_id)
    and (s.publisher_id = (select auth.uid()) or (p_source_id is not null and (public.is_admin() or auth.role() = 'service_role')))
  group by s.id, s.name, s.status, s.created_at
  order by s.created_at desc;
end
$$;
comment on function public.source_figures(uuid, date, date) is
  'The publisher''s sources (or, for admins, the one named): every click, counted clicks, subscriptions started, confirmations, counted conversions and earnings, all time or over a date range.';
revoke execute on function public.source_figures(uuid, date, date) from public, anon, authenticated;
grant execute on function public.source_figures(uuid, date, date) to authenticated, service_role;

-- The advertiser lands on their most recent active campaign (else the most recent one).
create function public.my_default_campaign()
returns uuid
language sql stable
security definer
set search_path = ''
as $$
  select id from public.campaigns
  where advertiser_id = (select auth.uid()) and status <> 'archived'
  order by (status = 'active') desc, created_at desc
  limit 1
$$;
comment on function public.my_default_campaign() is 'The campaign the analytics page opens on: the signed-in advertiser''s most recent active one, else their most recent.';
revoke execute on function public.my_default_campaign() from public, anon, authenticated;
grant execute on function public.my_default_campaign() to authenticated;

-- Totals of what campaign_source_figures lists (the summary above a table), summed in the database.
create function public.figure_totals(
  p_campaign_id uuid default null, p_source_id uuid default null, p_from date default null, p_to date default null
)
returns table (views bigint, clicks bigint, conversions bigint, ctr numeric, spend numeric, earnings numeric)
language sql stable
security definer
set search_path = ''
as $$
  select coalesce(sum(f.views), 0)::bigint, coalesce(sum(f.clicks), 0)::bigint, coalesce(sum(f.conversions), 0)::bigint,
    (case when coalesce(sum(f.clicks), 0) > 0 then round(sum(f.conversions) * 100.0 / sum(f.clicks), 2) else 0 end)::numeric(7, 2),
    coalesce(sum(f.spend), 0)::numeric(12, 2), coalesce(sum(f.earnings), 0)::numeric(12, 2)
  from public.campaign_source_figures(p_campaign_id, p_source_id, p_from, p_to) f
$$;
comment on function public.figure_totals(uuid, uuid, date, date) is
  'The sum of campaign_source_figures for the same arguments: one row of views, clicks, conversions, CTR, spend and earnings.';
revoke execute on function public.figure_totals(uuid, uuid, date, date) from public, anon, authenticated;
grant execute on function public.figure_totals(uuid, uuid, date, date) to authenticated, service_role;

-- The publisher's overview: every source of theirs together.
create function public.source_totals(p_from date default null, p_to date default null)
returns table (clicks bigint, counted_clicks bigint, subscriptions bigint, confirmations bigint, conversions bigint, earnings numeric)
language sql stable
security definer
set search_path = ''
as $$
  select coalesce(sum(f.clicks), 0)::bigint, coalesce(sum(f.counted_clicks), 0)::bigint,
    coalesce(sum(f.subscriptions), 0)::bigint, coalesce(sum(f.confirmations), 0)::bigint,
    coalesce(sum(f.conversions), 0)::bigint, coalesce(sum(f.earnings), 0)::numeric(12, 2)
  from public.source_figures(null, p_from, p_to) f
$$;
comment on function public.source_totals(date, date) is 'The signed-in publisher''s sources together: the sum of source_figures over a date range (or all time).';
revoke execute on function public.source_totals(date, date) from public, anon, authenticated;
grant execute on function public.source_totals(date, date) to authenticated, service_role;

-- The advertiser's campaign list: per campaign of theirs, over a date range.
create function public.campaign_figures(p_from date, p_to date)
returns table (campaign_id uuid, views bigint, clicks bigint, conversions bigint, spend numeric)
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  perform private.check_figures_range(p_from, p_to);
  return query
  select c.id, coalesce(sum(d.views), 0)::bigint, coalesce(sum(d.clicks), 0)::bigint,
    coalesce(sum(d.conversions), 0)::bigint, coalesce(sum(d.spend), 0)::numeric(12, 2)
  from public.campaigns c
  left join public.campaign_source_daily_stats d on d.campaign_id = c.id and d.day between p_from and p_to
  where c.advertiser_id = (select auth.uid())
  group by c.id;
end
$$;
comment on function public.campaign_figures(date, date) is 'The signed-in advertiser''s campaigns, each with its views, clicks, conversions and spend over a date range.';
revoke execute on function public.campaign_figures(date, date) from public, anon, authenticated;
grant execute on function public.campaign_figures(date, date) to authenticated, service_role;

-- The publisher's sources list: what did not count, per source (every click on it, and its subscriptions).
create function public.source_not_counted(p_from date default null, p_to date default null)
returns table (source_id uuid, kind text, reason text, label text, total bigint)
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  perform private.check_figures_range(p_from, p_to);
  return query
  select n.audience_source_id, n.kind, n.reason, r.label, sum(n.total)::bigint
  from public.audience_sources s
  join public.not_counted_daily n on n.audience_source_id = s.id
  join public.not_counted_reasons r on r.code = n.reason
  where s.publisher_id = (select auth.uid())
    and (n.kind = 'subscription' or n.campaign_id is null)
    and (p_from is null or n.day between p_from and p_to)
  group by n.audience_source_id, n.kind, n.reason, r.label, r.position
  having sum(n.total) <> 0
  order by n.audience_source_id, n.kind, r.position;
end
$$;
comment on function public.source_not_counted(date, date) is
  'The signed-in publisher''s not-counted totals per source, kind and reason (the same rows not_counted_figures sums for one source).';
revoke execute on function public.source_not_counted(date, date) from public, anon, authenticated;
grant execute on function public.source_not_counted(date, date) to authenticated, service_role;

-- The publisher's Stats page: the same (campaign, source) figures grouped per source or per campaign.
create function public.publisher_figures(p_group text, p_from date default null, p_to date default null)
returns table (id uuid, name text, views bigint, clicks bigint, conversions bigint, ctr numeric, earnings numeric)
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  if p_group is null or p_group not in ('source', 'campaign') then
    raise exception 'Group figures by source or by campaign' using errcode = '22023';
  end if;
  return query
  select case when p_group = 'source' then f.source_id else f.campaign_id end,
    min(case when p_group = 'source' then f.source_name else f.campaign_name end),
    sum(f.views)::bigint, sum(f.clicks)::bigint, sum(f.conversions)::bigint,
    (case when sum(f.clicks) > 0 then round(sum(f.conversions) * 100.0 / sum(f.clicks), 2) else 0 end)::numeric(7, 2),
    sum(f.earnings)::numeric(12, 2)
  from public.campaign_source_figures(null, null, p_from, p_to) f
  join public.audience_sources s on s.id = f.source_id
  where s.publisher_id = (select auth.uid())
  group by 1
  order by 5 desc, 4 desc, 2;
end
$$;
comment on function public.publisher_figures(text, date, date) is
  'The signed-in publisher''s campaign_source_figures summed per source or per campaign (names included: a publisher sees the names of the campaigns their sources promoted).';
revoke execute on function public.publisher_figures(text, date, date) from public, anon, authenticated;
grant execute on function public.publisher_figures(text, date, date) to authenticated, service_role;
