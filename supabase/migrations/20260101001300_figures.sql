-- Baseline, figures: the daily aggregates and the figures the dashboards read.
--
-- One of the 13 files that replaced the 38 migrations of January 2026 (none had been applied to a hosted
-- database; docs/decisions.md), rendered from the schema they built with the changes listed in
-- supabase/tests/helpers/squash-changes.ts; supabase/tests/schema.test.ts proves everything else equal. The
-- history goes on in new migrations after these; the current state is read in supabase/schemas/.

-- === Tables ==============================================================================================

create table public.campaign_source_daily_stats (
  campaign_id uuid not null,
  audience_source_id uuid not null,
  day date not null,
  views integer default 0 not null,
  clicks integer default 0 not null,
  conversions integer default 0 not null,
  spend numeric(12,2) default 0 not null,
  earnings numeric(12,2) default 0 not null,
  constraint campaign_source_daily_stats_pkey primary key (campaign_id, audience_source_id, day),
  constraint campaign_source_daily_stats_audience_source_id_fkey foreign key (audience_source_id) references public.audience_sources(id) on delete cascade,
  constraint campaign_source_daily_stats_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete cascade
);
alter table public.campaign_source_daily_stats enable row level security;
create index campaign_source_daily_stats_campaign_day_idx on public.campaign_source_daily_stats using btree (campaign_id, day);
create index campaign_source_daily_stats_source_idx on public.campaign_source_daily_stats using btree (audience_source_id, day);
comment on table public.campaign_source_daily_stats is 'campaign_source_stats per UTC day, kept by triggers in the same transaction: views and clicks on the day they happened, conversions, spend and earnings on the day the subscriber confirmed (a refund takes them back from that day). Summed over all days it equals campaign_source_stats.';
revoke all on table public.campaign_source_daily_stats from anon, authenticated;
revoke truncate, references, trigger on table public.campaign_source_daily_stats from service_role;
grant select on table public.campaign_source_daily_stats to authenticated;

create table public.campaign_source_stats (
  id uuid default gen_random_uuid() not null,
  campaign_id uuid not null,
  audience_source_id uuid not null,
  total_views integer default 0 not null,
  total_clicks integer default 0 not null,
  total_conversions integer default 0 not null,
  total_spend numeric(12,2) default 0 not null,
  total_earnings numeric(12,2) default 0 not null,
  ctr numeric(7,2) generated always as (
case
    when (total_clicks > 0) then round((((total_conversions)::numeric * 100.0) / (total_clicks)::numeric), 2)
    else (0)::numeric
end) stored,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint campaign_source_stats_pkey primary key (id),
  constraint campaign_source_stats_campaign_id_audience_source_id_key unique (campaign_id, audience_source_id),
  constraint campaign_source_stats_total_clicks_check check ((total_clicks >= 0)),
  constraint campaign_source_stats_total_conversions_check check ((total_conversions >= 0)),
  constraint campaign_source_stats_total_views_check check ((total_views >= 0)),
  constraint campaign_source_stats_audience_source_id_fkey foreign key (audience_source_id) references public.audience_sources(id) on delete restrict,
  constraint campaign_source_stats_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete restrict
);
alter table public.campaign_source_stats enable row level security;
create index campaign_source_stats_source_idx on public.campaign_source_stats using btree (audience_source_id);
comment on table public.campaign_source_stats is 'Counted traffic per campaign and source. total_views: campaign page views by counted clicks; total_clicks: counted clicks that opened this campaign (first view per click); total_conversions: counted confirmed subscribers; ctr = conversions per 100 clicks.';
revoke insert, update, delete, truncate, references, trigger on table public.campaign_source_stats from anon, authenticated;
revoke truncate, references, trigger on table public.campaign_source_stats from service_role;

create table public.not_counted_daily (
  id bigint generated always as identity,
  kind text not null,
  reason text not null,
  audience_source_id uuid not null,
  campaign_id uuid,
  day date not null,
  total integer default 0 not null,
  constraint not_counted_daily_pkey primary key (id),
  constraint not_counted_daily_key unique nulls not distinct (kind, reason, audience_source_id, campaign_id, day),
  constraint not_counted_daily_kind_check check ((kind = any (array['click'::text, 'subscription'::text]))),
  constraint not_counted_daily_audience_source_id_fkey foreign key (audience_source_id) references public.audience_sources(id) on delete cascade,
  constraint not_counted_daily_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete cascade,
  constraint not_counted_daily_reason_fkey foreign key (reason) references public.not_counted_reasons(code)
);
alter table public.not_counted_daily enable row level security;
create index not_counted_daily_campaign_idx on public.not_counted_daily using btree (campaign_id, day);
create index not_counted_daily_reason_idx on public.not_counted_daily using btree (reason);
create index not_counted_daily_source_idx on public.not_counted_daily using btree (audience_source_id, day);
comment on table public.not_counted_daily is 'What did not count, per kind (click, subscription), reason, source, campaign and UTC day. Click rows without a campaign are every click on the source; rows with a campaign are the not-counted clicks whose visitor opened or subscribed to it (once per pair).';
revoke all on table public.not_counted_daily from anon, authenticated;
revoke truncate, references, trigger on table public.not_counted_daily from service_role;
grant select on table public.not_counted_daily to authenticated;
revoke select, update, usage on sequence public.not_counted_daily_id_seq from anon, authenticated;

create table public.source_daily_stats (
  audience_source_id uuid not null,
  day date not null,
  clicks integer default 0 not null,
  counted_clicks integer default 0 not null,
  subscriptions integer default 0 not null,
  confirmations integer default 0 not null,
  conversions integer default 0 not null,
  earnings numeric(12,2) default 0 not null,
  backed_subscriptions integer default 0 not null,
  backed_confirmations integer default 0 not null,
  constraint source_daily_stats_pkey primary key (audience_source_id, day),
  constraint source_daily_stats_audience_source_id_fkey foreign key (audience_source_id) references public.audience_sources(id) on delete cascade
);
alter table public.source_daily_stats enable row level security;
comment on table public.source_daily_stats is 'Per source and UTC day: every magic-link click (counted or not), subscriptions started through the source, confirmations, counted conversions and earnings. Feeds the publisher''s source figures and the directory''s quality.';
comment on column public.source_daily_stats.backed_subscriptions is 'Subscriptions started through the source that day whose click counted (the confirmation rate''s denominator).';
comment on column public.source_daily_stats.backed_confirmations is 'Confirmations that day of subscriptions whose click counted (the confirmation rate''s numerator).';
revoke all on table public.source_daily_stats from anon, authenticated;
revoke truncate, references, trigger on table public.source_daily_stats from service_role;
grant select on table public.source_daily_stats to authenticated;

-- === Functions ===========================================================================================

create function public.admin_marketplace_totals()
 returns table(wallets bigint, balance numeric, on_hold numeric, reserved numeric, pending_earnings numeric, spend numeric, earnings numeric, platform_fees numeric, open_payouts numeric, open_payout_count bigint, paid_out numeric, open_disputes bigint)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_admin();
  return query
  select
    (select count(*) from public.wallet_balances),
    (select coalesce(sum(w.balance), 0) from public.wallet_balances w)::numeric(14, 2),
    (select coalesce(-sum(t.amount), 0) from public.wallet_transactions t where t.type = 'hold' and t.status = 'pending')::numeric(14, 2),
    (select coalesce(sum(c.budget_reserved), 0) from public.campaigns c)::numeric(14, 2),
    (select coalesce(sum(t.amount), 0) from public.wallet_transactions t where t.type = 'earning' and t.status = 'pending')::numeric(14, 2),
    st.spend::numeric(14, 2), st.earnings::numeric(14, 2), (st.spend - st.earnings)::numeric(14, 2),
    (select coalesce(sum(r.amount), 0) from public.payout_requests r where r.status = 'requested')::numeric(14, 2),
    (select count(*) from public.payout_requests r where r.status = 'requested'),
    (select coalesce(sum(r.amount), 0) from public.payout_requests r where r.status = 'paid')::numeric(14, 2),
    (select count(*) from public.disputes d where d.status = 'open')
  from (select coalesce(sum(s.total_spend), 0) as spend, coalesce(sum(s.total_earnings), 0) as earnings
        from public.campaign_source_stats s) st;
end
$function$;
comment on function public.admin_marketplace_totals() is 'Admins: money across the marketplace (wallets, on hold, reserved, pending earnings, spend, earnings, fees, payouts, open disputes), exact at any number of rows.';
revoke execute on function public.admin_marketplace_totals() from anon, public;

create function private.bump_campaign_source_day(p_campaign_id uuid, p_source_id uuid, p_day date, p_views integer, p_clicks integer, p_conversions integer, p_spend numeric, p_earnings numeric)
 returns void
 language sql
 security definer
 set search_path to ''
as $function$
  insert into public.campaign_source_daily_stats as d
    (campaign_id, audience_source_id, day, views, clicks, conversions, spend, earnings)
  values (p_campaign_id, p_source_id, p_day, p_views, p_clicks, p_conversions, p_spend, p_earnings)
  on conflict (campaign_id, audience_source_id, day) do update set
    views = d.views + excluded.views, clicks = d.clicks + excluded.clicks,
    conversions = d.conversions + excluded.conversions, spend = d.spend + excluded.spend,
    earnings = d.earnings + excluded.earnings
$function$;
comment on function private.bump_campaign_source_day(p_campaign_id uuid, p_source_id uuid, p_day date, p_views integer, p_clicks integer, p_conversions integer, p_spend numeric, p_earnings numeric) is 'Internal: the set-based upsert of the per-day (campaign, source) figures.';
revoke execute on function private.bump_campaign_source_day(p_campaign_id uuid, p_source_id uuid, p_day date, p_views integer, p_clicks integer, p_conversions integer, p_spend numeric, p_earnings numeric) from public;

create function private.bump_campaign_source_stats(p_campaign_id uuid, p_source_id uuid, p_views integer, p_clicks integer, p_conversions integer, p_spend numeric default 0, p_earnings numeric default 0)
 returns void
 language sql
 security definer
 set search_path to ''
as $function$
  insert into public.campaign_source_stats
    (campaign_id, audience_source_id, total_views, total_clicks, total_conversions, total_spend, total_earnings)
  values (p_campaign_id, p_source_id, p_views, p_clicks, p_conversions, p_spend, p_earnings)
  on conflict (campaign_id, audience_source_id) do update set
    total_views = public.campaign_source_stats.total_views + excluded.total_views,
    total_clicks = public.campaign_source_stats.total_clicks + excluded.total_clicks,
    total_conversions = public.campaign_source_stats.total_conversions + excluded.total_conversions,
    total_spend = public.campaign_source_stats.total_spend + excluded.total_spend,
    total_earnings = public.campaign_source_stats.total_earnings + excluded.total_earnings,
    updated_at = now()
$function$;
comment on function private.bump_campaign_source_stats(p_campaign_id uuid, p_source_id uuid, p_views integer, p_clicks integer, p_conversions integer, p_spend numeric, p_earnings numeric) is 'Internal: the set-based upsert that keeps the per-(campaign, source) counters.';
revoke execute on function private.bump_campaign_source_stats(p_campaign_id uuid, p_source_id uuid, p_views integer, p_clicks integer, p_conversions integer, p_spend numeric, p_earnings numeric) from public;

create function private.bump_not_counted(p_kind text, p_reason text, p_source_id uuid, p_campaign_id uuid, p_day date, p_delta integer)
 returns void
 language sql
 security definer
 set search_path to ''
as $function$
  insert into public.not_counted_daily as n (kind, reason, audience_source_id, campaign_id, day, total)
  values (p_kind, p_reason, p_source_id, p_campaign_id, p_day, p_delta)
  on conflict on constraint not_counted_daily_key do update set total = n.total + excluded.total
$function$;
comment on function private.bump_not_counted(p_kind text, p_reason text, p_source_id uuid, p_campaign_id uuid, p_day date, p_delta integer) is 'Internal: adds to the not-counted total of one kind, reason, source, campaign (or none) and day.';
revoke execute on function private.bump_not_counted(p_kind text, p_reason text, p_source_id uuid, p_campaign_id uuid, p_day date, p_delta integer) from public;

create function private.bump_source_day(p_source_id uuid, p_day date, p_clicks integer, p_counted_clicks integer, p_subscriptions integer, p_confirmations integer, p_conversions integer, p_earnings numeric)
 returns void
 language sql
 security definer
 set search_path to ''
as $function$
  insert into public.source_daily_stats as d
    (audience_source_id, day, clicks, counted_clicks, subscriptions, confirmations, conversions, earnings)
  values (p_source_id, p_day, p_clicks, p_counted_clicks, p_subscriptions, p_confirmations, p_conversions, p_earnings)
  on conflict (audience_source_id, day) do update set
    clicks = d.clicks + excluded.clicks, counted_clicks = d.counted_clicks + excluded.counted_clicks,
    subscriptions = d.subscriptions + excluded.subscriptions, confirmations = d.confirmations + excluded.confirmations,
    conversions = d.conversions + excluded.conversions, earnings = d.earnings + excluded.earnings
$function$;
comment on function private.bump_source_day(p_source_id uuid, p_day date, p_clicks integer, p_counted_clicks integer, p_subscriptions integer, p_confirmations integer, p_conversions integer, p_earnings numeric) is 'Internal: the set-based upsert of the per-day source figures.';
revoke execute on function private.bump_source_day(p_source_id uuid, p_day date, p_clicks integer, p_counted_clicks integer, p_subscriptions integer, p_confirmations integer, p_conversions integer, p_earnings numeric) from public;

create function public.campaign_figures(p_from date, p_to date)
 returns table(campaign_id uuid, views bigint, clicks bigint, conversions bigint, spend numeric)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
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
$function$;
comment on function public.campaign_figures(p_from date, p_to date) is 'The signed-in advertiser''s campaigns, each with its views, clicks, conversions and spend over a date range.';
revoke execute on function public.campaign_figures(p_from date, p_to date) from anon, public;

create function public.campaign_source_figures(p_campaign_id uuid default null::uuid, p_source_id uuid default null::uuid, p_from date default null::date, p_to date default null::date)
 returns table(campaign_id uuid, campaign_name text, campaign_status text, source_id uuid, source_name text, views bigint, clicks bigint, conversions bigint, ctr numeric, spend numeric, earnings numeric)
 language plpgsql
 stable security definer
 set search_path to ''
 set plan_cache_mode to 'force_custom_plan'
as $function$
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
$function$;
comment on function public.campaign_source_figures(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) is 'Figures per (campaign, source) — views, clicks, conversions, CTR (conversions per 100 clicks), spend, earnings — for the caller''s campaigns, the caller''s sources, or (admins) any; all time, or summed over a date range of at most a year.';
revoke execute on function public.campaign_source_figures(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) from anon, public;

create function private.campaign_source_stats_daily()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  dv integer := new.total_views - case when tg_op = 'UPDATE' then old.total_views else 0 end;
  dc integer := new.total_clicks - case when tg_op = 'UPDATE' then old.total_clicks else 0 end;
begin
  if dv <> 0 or dc <> 0 then
    perform private.bump_campaign_source_day(new.campaign_id, new.audience_source_id, private.utc_day(now()), dv, dc, 0, 0, 0);
  end if;
  return null;
end
$function$;
comment on function private.campaign_source_stats_daily() is 'Internal trigger: the views and clicks added to campaign_source_stats, on today''s row.';
revoke execute on function private.campaign_source_stats_daily() from public;

create function private.check_figures_range(p_from date, p_to date)
 returns void
 language plpgsql
 immutable
 set search_path to ''
as $function$
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
$function$;
comment on function private.check_figures_range(p_from date, p_to date) is 'Internal: a date range is both ends or none, in order, and at most a year.';
revoke execute on function private.check_figures_range(p_from date, p_to date) from public;

create function private.check_figures_scope(p_campaign_id uuid, p_source_id uuid)
 returns void
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
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
$function$;
comment on function private.check_figures_scope(p_campaign_id uuid, p_source_id uuid) is 'Internal: refuses figures of a campaign or source the caller neither owns nor administers.';
revoke execute on function private.check_figures_scope(p_campaign_id uuid, p_source_id uuid) from public;

create function public.daily_figures(p_campaign_id uuid default null::uuid, p_source_id uuid default null::uuid, p_from date default null::date, p_to date default null::date)
 returns table(day date, views bigint, clicks bigint, conversions bigint, spend numeric, earnings numeric)
 language plpgsql
 stable security definer
 set search_path to ''
 set plan_cache_mode to 'force_custom_plan'
as $function$
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
$function$;
comment on function public.daily_figures(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) is 'Per UTC day, every day of the range (default: the last 30 days): views, clicks, conversions, spend and earnings of the (campaign, source) rows the caller may see, filtered by campaign and/or source.';
revoke execute on function public.daily_figures(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) from anon, public;

create function public.figure_totals(p_campaign_id uuid default null::uuid, p_source_id uuid default null::uuid, p_from date default null::date, p_to date default null::date)
 returns table(views bigint, clicks bigint, conversions bigint, ctr numeric, spend numeric, earnings numeric)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce(sum(f.views), 0)::bigint, coalesce(sum(f.clicks), 0)::bigint, coalesce(sum(f.conversions), 0)::bigint,
    (case when coalesce(sum(f.clicks), 0) > 0 then round(sum(f.conversions) * 100.0 / sum(f.clicks), 2) else 0 end)::numeric(7, 2),
    coalesce(sum(f.spend), 0)::numeric(12, 2), coalesce(sum(f.earnings), 0)::numeric(12, 2)
  from public.campaign_source_figures(p_campaign_id, p_source_id, p_from, p_to) f
$function$;
comment on function public.figure_totals(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) is 'The sum of campaign_source_figures for the same arguments: one row of views, clicks, conversions, CTR, spend and earnings.';
revoke execute on function public.figure_totals(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) from anon, public;

create function private.figures_viewer(out sees_all boolean, out campaign_ids uuid[], out source_ids uuid[])
 returns record
 language sql
 stable security definer
 set search_path to ''
as $function$
  select v.sees_all,
    case when v.sees_all then '{}'::uuid[] else array(select c.id from public.campaigns c where c.advertiser_id = v.me) end,
    case when v.sees_all then '{}'::uuid[] else array(select s.id from public.audience_sources s where s.publisher_id = v.me) end
  from (select (select auth.uid()) as me, public.is_admin() or auth.role() = 'service_role' as sees_all) v
$function$;
comment on function private.figures_viewer(out sees_all boolean, out campaign_ids uuid[], out source_ids uuid[]) is 'Internal: the caller''s scope for figures, resolved once per call: all rows (admin at aal2, service role), else the ids of the campaigns they advertise and of the sources they publish.';
revoke execute on function private.figures_viewer(out sees_all boolean, out campaign_ids uuid[], out source_ids uuid[]) from public;

create function private.link_click_daily()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  perform private.bump_source_day(new.audience_source_id, private.utc_day(new.created_at), 1,
    case when new.counted then 1 else 0 end, 0, 0, 0, 0);
  if not new.counted then
    perform private.bump_not_counted('click', new.not_counted_reason, new.audience_source_id, null,
      private.utc_day(new.created_at), 1);
  end if;
  return null;
end
$function$;
comment on function private.link_click_daily() is 'Internal trigger: every click on its source''s day, and its reason when it did not count.';
revoke execute on function private.link_click_daily() from public;

create function public.not_counted_figures(p_campaign_id uuid default null::uuid, p_source_id uuid default null::uuid, p_from date default null::date, p_to date default null::date)
 returns table(kind text, reason text, label text, total bigint)
 language plpgsql
 stable security definer
 set search_path to ''
 set plan_cache_mode to 'force_custom_plan'
as $function$
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
$function$;
comment on function public.not_counted_figures(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) is 'What did not count, by kind (click, subscription) and reason with its label: for a campaign, the clicks attached to it and its subscriptions; for a source alone, every click on it and its subscriptions.';
revoke execute on function public.not_counted_figures(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) from anon, public;

create function public.publisher_figures(p_group text, p_from date default null::date, p_to date default null::date)
 returns table(id uuid, name text, views bigint, clicks bigint, conversions bigint, ctr numeric, earnings numeric)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
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
$function$;
comment on function public.publisher_figures(p_group text, p_from date, p_to date) is 'The signed-in publisher''s campaign_source_figures summed per source or per campaign (names included: a publisher sees the names of the campaigns their sources promoted).';
revoke execute on function public.publisher_figures(p_group text, p_from date, p_to date) from anon, public;

create function public.source_figures(p_source_id uuid default null::uuid, p_from date default null::date, p_to date default null::date)
 returns table(source_id uuid, source_name text, source_status text, clicks bigint, counted_clicks bigint, not_counted_clicks bigint, subscriptions bigint, confirmations bigint, conversions bigint, earnings numeric)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
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
$function$;
comment on function public.source_figures(p_source_id uuid, p_from date, p_to date) is 'The publisher''s sources (or, for admins, the one named): every click, counted clicks, subscriptions started, confirmations, counted conversions and earnings, all time or over a date range.';
revoke execute on function public.source_figures(p_source_id uuid, p_from date, p_to date) from anon, public;

create function public.source_not_counted(p_from date default null::date, p_to date default null::date)
 returns table(source_id uuid, kind text, reason text, label text, total bigint)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
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
$function$;
comment on function public.source_not_counted(p_from date, p_to date) is 'The signed-in publisher''s not-counted totals per source, kind and reason (the same rows not_counted_figures sums for one source).';
revoke execute on function public.source_not_counted(p_from date, p_to date) from anon, public;

create function public.source_totals(p_from date default null::date, p_to date default null::date)
 returns table(clicks bigint, counted_clicks bigint, subscriptions bigint, confirmations bigint, conversions bigint, earnings numeric)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce(sum(f.clicks), 0)::bigint, coalesce(sum(f.counted_clicks), 0)::bigint,
    coalesce(sum(f.subscriptions), 0)::bigint, coalesce(sum(f.confirmations), 0)::bigint,
    coalesce(sum(f.conversions), 0)::bigint, coalesce(sum(f.earnings), 0)::numeric(12, 2)
  from public.source_figures(null, p_from, p_to) f
$function$;
comment on function public.source_totals(p_from date, p_to date) is 'The signed-in publisher''s sources together: the sum of source_figures over a date range (or all time).';
revoke execute on function public.source_totals(p_from date, p_to date) from anon, public;

create function private.subscription_backed_daily()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  backed boolean;
begin
  if new.audience_source_id is null or new.click_id is null then
    return null;
  end if;
  select l.counted into backed from public.link_clicks l where l.id = new.click_id;
  if not coalesce(backed, false) then
    return null;
  end if;
  if tg_op = 'INSERT' or new.attributed_at is distinct from old.attributed_at then
    insert into public.source_daily_stats as d (audience_source_id, day, backed_subscriptions)
    values (new.audience_source_id, private.utc_day(coalesce(new.attributed_at, new.created_at)), 1)
    on conflict (audience_source_id, day) do update set backed_subscriptions = d.backed_subscriptions + 1;
  end if;
  if new.confirmed_at is not null and (tg_op = 'INSERT' or old.confirmed_at is null) then
    insert into public.source_daily_stats as d (audience_source_id, day, backed_confirmations)
    values (new.audience_source_id, private.utc_day(new.confirmed_at), 1)
    on conflict (audience_source_id, day) do update set backed_confirmations = d.backed_confirmations + 1;
  end if;
  return null;
end
$function$;
comment on function private.subscription_backed_daily() is 'Trigger: counts subscriptions started and confirmed through a counted click, per source and day.';
revoke execute on function private.subscription_backed_daily() from public;

create function private.subscription_daily()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  is_update boolean := tg_op = 'UPDATE';
  was_counted boolean := is_update and old.counted;
  old_reason text := case when is_update then old.not_counted_reason end;
  earning numeric(12, 2);
begin
  -- Subscriptions started through a source (a new attribution), and confirmations.
  if new.audience_source_id is not null then
    if not is_update or new.attributed_at is distinct from old.attributed_at then
      perform private.bump_source_day(new.audience_source_id, private.utc_day(coalesce(new.attributed_at, new.created_at)), 0, 0, 1, 0, 0, 0);
    end if;
    if new.confirmed_at is not null and (not is_update or old.confirmed_at is null) then
      perform private.bump_source_day(new.audience_source_id, private.utc_day(new.confirmed_at), 0, 0, 0, 1, 0, 0);
    end if;
  end if;
  -- Conversions, spend and earnings on the day of the confirmation.
  if new.counted and not was_counted then
    earning := round(new.price * 0.8, 2);
    perform private.bump_campaign_source_day(new.campaign_id, new.audience_source_id, private.utc_day(new.confirmed_at),
      0, 0, 1, new.price, earning);
    perform private.bump_source_day(new.audience_source_id, private.utc_day(new.confirmed_at), 0, 0, 0, 0, 1, earning);
  elsif was_counted and not new.counted then
    earning := round(old.price * 0.8, 2);
    perform private.bump_campaign_source_day(old.campaign_id, old.audience_source_id, private.utc_day(old.confirmed_at),
      0, 0, -1, -old.price, -earning);
    perform private.bump_source_day(old.audience_source_id, private.utc_day(old.confirmed_at), 0, 0, 0, 0, -1, -earning);
  end if;
  -- Reasons: the current state of every attributed subscription, on the day it was confirmed (else made).
  if old_reason is not null and (new.not_counted_reason is distinct from old_reason
      or new.audience_source_id is distinct from old.audience_source_id
      or coalesce(new.confirmed_at, new.created_at) is distinct from coalesce(old.confirmed_at, old.created_at)) then
    perform private.bump_not_counted('subscription', old_reason, old.audience_source_id, old.campaign_id,
      private.utc_day(coalesce(old.confirmed_at, old.created_at)), -1);
  end if;
  if new.not_counted_reason is not null and new.audience_source_id is not null and (old_reason is null
      or new.not_counted_reason is distinct from old_reason
      or new.audience_source_id is distinct from old.audience_source_id
      or coalesce(new.confirmed_at, new.created_at) is distinct from coalesce(old.confirmed_at, old.created_at)) then
    perform private.bump_not_counted('subscription', new.not_counted_reason, new.audience_source_id, new.campaign_id,
      private.utc_day(coalesce(new.confirmed_at, new.created_at)), 1);
  end if;
  return null;
end
$function$;
comment on function private.subscription_daily() is 'Internal trigger: keeps the per-day conversions, spend, earnings, source subscriptions and confirmations, and the not-counted subscription reasons, in step with every subscription change.';
revoke execute on function private.subscription_daily() from public;

-- === Triggers ============================================================================================

create trigger campaign_source_stats_daily after insert or update on public.campaign_source_stats for each row execute function private.campaign_source_stats_daily();

create trigger campaign_source_stats_immutable before update on public.campaign_source_stats for each row execute function public.forbid_column_changes('campaign_id', 'audience_source_id');

create trigger link_clicks_daily after insert on public.link_clicks for each row execute function private.link_click_daily();

create trigger newsletter_subscriptions_backed_daily after insert or update on public.newsletter_subscriptions for each row execute function private.subscription_backed_daily();

create trigger newsletter_subscriptions_daily after insert or update on public.newsletter_subscriptions for each row execute function private.subscription_daily();

-- === Row-level security policies =========================================================================

create policy "Admins can read every daily stat" on public.campaign_source_daily_stats
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Advertisers can read daily stats of their campaigns" on public.campaign_source_daily_stats
  for select to authenticated
  using ((exists ( select 1
   from public.campaigns c
  where ((c.id = campaign_source_daily_stats.campaign_id) and (c.advertiser_id = ( select auth.uid() as uid))))));
create policy "Publishers can read daily stats of their sources" on public.campaign_source_daily_stats
  for select to authenticated
  using ((exists ( select 1
   from public.audience_sources s
  where ((s.id = campaign_source_daily_stats.audience_source_id) and (s.publisher_id = ( select auth.uid() as uid))))));

create policy "Admins can read every stat" on public.campaign_source_stats
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Advertisers can read stats of their campaigns" on public.campaign_source_stats
  for select to authenticated
  using ((exists ( select 1
   from public.campaigns c
  where ((c.id = campaign_source_stats.campaign_id) and (c.advertiser_id = ( select auth.uid() as uid))))));
create policy "Publishers can read stats of their sources" on public.campaign_source_stats
  for select to authenticated
  using ((exists ( select 1
   from public.audience_sources s
  where ((s.id = campaign_source_stats.audience_source_id) and (s.publisher_id = ( select auth.uid() as uid))))));

create policy "Admins can read everything that did not count" on public.not_counted_daily
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Advertisers can read what did not count on their campaigns" on public.not_counted_daily
  for select to authenticated
  using ((exists ( select 1
   from public.campaigns c
  where ((c.id = not_counted_daily.campaign_id) and (c.advertiser_id = ( select auth.uid() as uid))))));
create policy "Publishers can read what did not count on their sources" on public.not_counted_daily
  for select to authenticated
  using ((exists ( select 1
   from public.audience_sources s
  where ((s.id = not_counted_daily.audience_source_id) and (s.publisher_id = ( select auth.uid() as uid))))));

create policy "Admins can read every source's daily figures" on public.source_daily_stats
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Publishers can read daily figures of their sources" on public.source_daily_stats
  for select to authenticated
  using ((exists ( select 1
   from public.audience_sources s
  where ((s.id = source_daily_stats.audience_source_id) and (s.publisher_id = ( select auth.uid() as uid))))));
