-- One word, one number, second pass (issue 38; PRODUCT "Words and numbers, second pass").
--
-- 1. A source's counted clicks are its distinct counted clicks, never a sum over the newsletters its visitors
--    opened: figure_totals and daily_figures scoped to one source alone (the admin's analytics of a source) read
--    them from source_daily_stats, as the publisher's Stats (publisher_figures) and source_figures do.
-- 2. "Confirmed subscribers" has one definition: readers who confirmed by email and were not refunded (a reader who
--    unsubscribed later still confirmed). campaign_week_figures (the advertiser's Overview), campaign_subscriber_totals
--    (the Subscribers page, new) and source_figures / source_totals (the publisher's figures) all count it so; the
--    refunded readers are shown beside it, never inside it.

-- Refunded readers are few: these let the figures subtract them without scanning a campaign's or a source's readers.
create index newsletter_subscriptions_refunded_campaign_idx on public.newsletter_subscriptions
  using btree (campaign_id, confirmed_at) where (not_counted_reason = 'refunded');
create index newsletter_subscriptions_refunded_source_idx on public.newsletter_subscriptions
  using btree (audience_source_id, confirmed_at) where (not_counted_reason = 'refunded');

create or replace function public.figure_totals(p_campaign_id uuid default null::uuid, p_source_id uuid default null::uuid, p_from date default null::date, p_to date default null::date)
 returns table(views bigint, clicks bigint, conversions bigint, ctr numeric, spend numeric, earnings numeric, updated_at timestamp with time zone)
 language sql
 stable security definer
 set search_path to ''
as $function$
  with pairs as (
    select coalesce(sum(f.views), 0)::bigint v, coalesce(sum(f.clicks), 0)::bigint k, coalesce(sum(f.conversions), 0)::bigint n,
      coalesce(sum(f.spend), 0)::numeric(12, 2) sp, coalesce(sum(f.earnings), 0)::numeric(12, 2) ea
    from public.campaign_source_figures(p_campaign_id, p_source_id, p_from, p_to) f
  ), one_source as (
    -- One source alone: its distinct counted clicks and its paid subscribers, as publisher_figures counts them.
    select coalesce(sum(s.counted_clicks), 0)::bigint k, coalesce(sum(s.conversions), 0)::bigint n
    from public.source_figures(p_source_id, p_from, p_to) s
    where p_campaign_id is null and p_source_id is not null
  ), chosen as (
    select p.v, case when p_campaign_id is null and p_source_id is not null then o.k else p.k end k,
      case when p_campaign_id is null and p_source_id is not null then o.n else p.n end n, p.sp, p.ea
    from pairs p cross join one_source o
  )
  select c.v, c.k, c.n,
    (case when c.k > 0 then round(c.n * 100.0 / c.k, 2) else 0 end)::numeric(7, 2),
    c.sp, c.ea, public.figures_updated_at()
  from chosen c
$function$;
comment on function public.figure_totals(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) is 'One row of views, clicks, conversions, CTR, spend and earnings with updated_at (figures_updated_at): the sum of campaign_source_figures for the same arguments, except that for one source alone clicks and conversions are the source''s own (source_figures: distinct counted clicks, never a sum over the newsletters its visitors opened).';
revoke execute on function public.figure_totals(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) from public;
grant execute on function public.figure_totals(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) to authenticated, service_role;

create or replace function public.daily_figures(p_campaign_id uuid default null::uuid, p_source_id uuid default null::uuid, p_from date default null::date, p_to date default null::date)
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
  if p_campaign_id is null and p_source_id is null and not v.sees_all and cardinality(v.campaign_ids) = 0 then
    -- A publisher's every source: one row per campaign and day (publisher_campaign_daily), not one per source.
    return query
    select g.day::date, coalesce(x.views, 0)::bigint, coalesce(x.clicks, 0)::bigint,
      coalesce(x.conversions, 0)::bigint, coalesce(x.spend, 0)::numeric(12, 2), coalesce(x.earnings, 0)::numeric(12, 2)
    from generate_series(d_from, d_to, interval '1 day') g(day)
    left join (
      select p.day, sum(p.views) views, sum(p.clicks) clicks, sum(p.conversions) conversions, sum(p.spend) spend,
        sum(p.earnings) earnings
      from private.publisher_campaign_daily p
      where p.publisher_id = (select auth.uid()) and p.day between d_from and d_to
      group by p.day
    ) x on x.day = g.day::date
    order by g.day;
    return;
  end if;
  return query
  select g.day::date, coalesce(x.views, 0)::bigint,
    -- One source alone: its distinct counted clicks that day (source_daily_stats), never a sum over newsletters.
    (case when p_campaign_id is null and p_source_id is not null then coalesce(sd.counted_clicks, 0)
      else coalesce(x.clicks, 0) end)::bigint,
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
  left join public.source_daily_stats sd
    on p_campaign_id is null and p_source_id is not null and sd.audience_source_id = p_source_id and sd.day = g.day::date
  order by g.day;
end
$function$;
comment on function public.daily_figures(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) is 'Per UTC day, every day of the range (default: the last 30 days): views, clicks, conversions, spend and earnings of the (campaign, source) rows the caller may see, filtered by campaign and/or source; for one source alone, clicks are the source''s distinct counted clicks (source_daily_stats).';
revoke execute on function public.daily_figures(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) from public;
grant execute on function public.daily_figures(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) to authenticated, service_role;

create or replace function public.campaign_week_figures(p_now timestamp with time zone default now())
 returns table(campaign_id uuid, confirmed_subscribers bigint, paid_subscribers bigint)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_live_session();
  return query
  select c.id,
    -- Confirmed subscribers: confirmed by email, not refunded (unsubscribing later does not undo a confirmation).
    count(n.id) filter (where n.not_counted_reason is distinct from 'refunded'),
    count(n.id) filter (where n.counted)
  from public.campaigns c
  left join public.newsletter_subscriptions n
    on n.campaign_id = c.id and n.confirmed_at > p_now - interval '7 days' and n.confirmed_at <= p_now
  where c.advertiser_id = (select auth.uid())
  group by c.id;
end
$function$;
comment on function public.campaign_week_figures(p_now timestamp with time zone) is 'The signed-in advertiser''s campaigns over the last 7 days: confirmed subscribers (confirmed by email and not refunded, paid or free, as campaign_subscriber_totals and source_figures count them) and paid subscribers (charged and not refunded), the overview''s two figures.';
revoke execute on function public.campaign_week_figures(p_now timestamp with time zone) from public;
grant execute on function public.campaign_week_figures(p_now timestamp with time zone) to authenticated, service_role;

create or replace function public.campaign_subscriber_totals(p_campaign_id uuid)
 returns table(confirmed bigint, refunded bigint)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  listed bigint;
  gone bigint;
begin
  perform private.check_subscriber_reader(p_campaign_id);
  listed := coalesce((select c.confirmed from private.campaign_subscriber_counts c where c.campaign_id = p_campaign_id), 0);
  gone := (select count(*) from public.newsletter_subscriptions s
    where s.campaign_id = p_campaign_id and s.not_counted_reason = 'refunded' and s.confirmed_at is not null);
  return query select listed - gone, gone;
end
$function$;
comment on function public.campaign_subscriber_totals(p_campaign_id uuid) is 'A campaign''s confirmed subscribers (confirmed by email and not refunded: the one definition campaign_week_figures and source_figures use) and, beside them, its refunded readers. The campaign''s advertiser or an admin.';
revoke execute on function public.campaign_subscriber_totals(p_campaign_id uuid) from public;
grant execute on function public.campaign_subscriber_totals(p_campaign_id uuid) to authenticated, service_role;

create or replace function public.source_figures(p_source_id uuid default null::uuid, p_from date default null::date, p_to date default null::date)
 returns table(source_id uuid, source_name text, source_status text, clicks bigint, counted_clicks bigint, not_counted_clicks bigint, subscriptions bigint, confirmations bigint, conversions bigint, earnings numeric)
 language plpgsql
 stable security definer
 set search_path to ''
 set plan_cache_mode to 'force_custom_plan'
as $function$
begin
  perform private.check_figures_range(p_from, p_to);
  perform private.check_figures_scope(null, p_source_id);
  return query
  select s.id, s.name, s.status, coalesce(sum(d.clicks), 0)::bigint, coalesce(sum(d.counted_clicks), 0)::bigint,
    coalesce(sum(d.clicks - d.counted_clicks), 0)::bigint, coalesce(sum(d.subscriptions), 0)::bigint,
    -- Confirmed subscribers: every confirmation less the readers refunded since (by the day they confirmed).
    (coalesce(sum(d.confirmations), 0) - (
      select count(*) from public.newsletter_subscriptions r
      where r.audience_source_id = s.id and r.not_counted_reason = 'refunded' and r.confirmed_at is not null
        and (p_from is null or private.utc_day(r.confirmed_at) between p_from and p_to)))::bigint,
    coalesce(sum(d.conversions), 0)::bigint, coalesce(sum(d.earnings), 0)::numeric(12, 2)
  from public.audience_sources s
  left join public.source_daily_stats d on d.audience_source_id = s.id and (p_from is null or d.day between p_from and p_to)
  where (p_source_id is null or s.id = p_source_id)
    and (s.publisher_id = (select auth.uid()) or (p_source_id is not null and (public.is_admin() or auth.role() = 'service_role')))
  group by s.id, s.name, s.status, s.created_at
  order by s.created_at desc;
end
$function$;
comment on function public.source_figures(p_source_id uuid, p_from date, p_to date) is 'The publisher''s sources (or, for admins, the one named): every click, counted clicks, subscriptions started, confirmed subscribers (confirmed and not refunded), counted conversions and earnings, all time or over a date range.';
revoke execute on function public.source_figures(p_source_id uuid, p_from date, p_to date) from public;
grant execute on function public.source_figures(p_source_id uuid, p_from date, p_to date) to authenticated, service_role;
