-- Issue 27, the page view's per-pair counters off the visitor's transaction. A magic-link visitor's page view
-- (record_campaign_page_view -> attribute_click) upserted its (campaign, source) counters in its own transaction:
-- campaign_source_stats (total_views, total_clicks), through its trigger today's campaign_source_daily_stats row, and,
-- for a click that did not count, the pair's not_counted_daily row. Every view of a viral (campaign, source) pair
-- waited on the same row locks (and key-shared the campaign row through their foreign keys).
--
-- Now the page view appends one row to private.pair_day_queue and locks no shared row. drain_click_queue (the same
-- job, every 10 seconds, one run at a time) adds those rows to campaign_source_stats, campaign_source_daily_stats and
-- not_counted_daily in the same batches (for update skip locked, each row taken once by the run that deletes it) as it
-- adds every pair_day_queue row to the publisher's and the campaign's daily aggregates. A queued change keeps its UTC
-- day (the day of the view; a not-counted click's own day), not the day it is drained.
--
-- Not moved: conversions, spend and earnings of campaign_source_stats are still written in the confirming (and
-- refunding) transaction, with the ledger: admin_marketplace_totals reads total_spend / total_earnings. No money rule
-- reads total_views or total_clicks (the paid-subscriber rule reads link_clicks).
--
-- Locks: a run first key-shares the campaigns of the changes it will take and locks their campaign_source_stats rows,
-- in order, before it touches any aggregate. confirm_subscription holds its campaign `for update` while it writes the
-- pair's rows, refund_subscription its pair row; a run that waited for either after taking aggregate rows could
-- deadlock with it.

alter table private.pair_day_queue
  add column to_pair_counters boolean default false not null,
  add column not_counted_reason text;
comment on table private.pair_day_queue is 'Changes to the (campaign, source) figures not yet in the aggregates, taken and deleted by drain_click_queue. Appended by bump_campaign_source_day (conversions, spend, earnings, already in campaign_source_daily_stats: the drain adds them to source_daily_stats.views, publisher_campaign_daily and campaign_daily) and by attribute_click (a page view''s views and clicks, to_pair_counters: also added to campaign_source_stats and campaign_source_daily_stats; or one not-counted click of the pair, not_counted_reason: added to not_counted_daily only).';
comment on column private.pair_day_queue.to_pair_counters is 'True: views and clicks queued by attribute_click, not yet in campaign_source_stats and campaign_source_daily_stats either.';
comment on column private.pair_day_queue.not_counted_reason is 'Set: one click that did not count, first attributed to this campaign (attribute_click); the drain adds it to not_counted_daily and nowhere else.';

-- Nothing but the drain changes views and clicks now, on the queued day.
drop trigger campaign_source_stats_daily on public.campaign_source_stats;
drop function private.campaign_source_stats_daily();

comment on table public.campaign_source_daily_stats is 'campaign_source_stats per UTC day: views and clicks on the day they happened (queued by attribute_click, added by drain_click_queue), conversions, spend and earnings on the day the subscriber confirmed, in the same transaction (a refund takes them back from that day). Summed over all days it equals campaign_source_stats once the queue is drained.';
comment on table public.campaign_source_stats is 'Counted traffic per campaign and source. total_views: campaign page views by counted clicks; total_clicks: counted clicks that opened this campaign (first view per click) — both added by drain_click_queue (they lag by at most one run, figures_updated_at); total_conversions, total_spend, total_earnings: written with the ledger when a subscriber is confirmed or refunded; ctr = conversions per 100 clicks.';

create or replace function private.attribute_click(p_click_id uuid, p_campaign_id uuid, p_first_view boolean)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  c public.link_clicks;
  first_pair boolean;
begin
  select * into c from public.link_clicks where id = p_click_id for update;
  if not found or p_campaign_id is null then
    return;
  end if;
  first_pair := not (p_campaign_id = any (c.attributed_campaign_ids));
  if first_pair then
    update public.link_clicks set attributed_campaign_ids = attributed_campaign_ids || p_campaign_id,
      campaign_id = coalesce(campaign_id, p_campaign_id)
      where id = p_click_id;
  end if;
  -- Appends only: drain_click_queue adds the change to the pair's counters (no shared row is locked here).
  if c.counted then
    if first_pair or p_first_view then
      insert into private.pair_day_queue
        (campaign_id, audience_source_id, day, views, clicks, conversions, spend, earnings, to_pair_counters)
      values (p_campaign_id, c.audience_source_id, private.utc_day(now()),
        case when p_first_view then 1 else 0 end, case when first_pair then 1 else 0 end, 0, 0, 0, true);
    end if;
  elsif first_pair then
    insert into private.pair_day_queue
      (campaign_id, audience_source_id, day, views, clicks, conversions, spend, earnings, not_counted_reason)
    values (p_campaign_id, c.audience_source_id, private.utc_day(c.created_at), 0, 0, 0, 0, 0, c.not_counted_reason);
  end if;
end
$function$;
comment on function private.attribute_click(p_click_id uuid, p_campaign_id uuid, p_first_view boolean) is 'Internal: PRODUCT "click" — a click belongs to every campaign its visitor opens or subscribes to, once per pair; a first view of the campaign on this click adds a view. Queues the pair''s change (pair_day_queue) for drain_click_queue.';
revoke execute on function private.attribute_click(p_click_id uuid, p_campaign_id uuid, p_first_view boolean) from public;

comment on function public.record_campaign_page_view(p_click_id uuid, p_campaign_id uuid) is 'SPEC §7 link_clicks update without table rights, for every page or card a visitor opens (campaign link page, newsletter page, a card picked in the list): page_views (at most 10 a minute per click), unique_views; the (campaign, source) counters count a view once per click and campaign and the click once per pair (queued, added by drain_click_queue).';

create or replace function public.drain_click_queue(p_batch integer default 10000, p_max_batches integer default 20)
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  batch_size integer := greatest(coalesce(p_batch, 10000), 1);
  drained integer := 0;
  n integer;
  oldest timestamp with time zone;
  last_change bigint;
begin
  -- One run at a time: two overlapping runs upsert the same aggregate rows in different orders and can deadlock on
  -- PostgreSQL. A run that finds another one working leaves the queue to it (and to the next run, 10 s later).
  if not pg_try_advisory_xact_lock(hashtextextended('growletter:drain_click_queue', 0)) then
    return 0;
  end if;
  -- The (campaign, source) changes this run takes: those queued now. Before touching any aggregate, key-share their
  -- campaigns (what the aggregates' foreign keys take; confirm_subscription holds its campaign `for update`) and lock
  -- their pairs' counters (refund_subscription updates its pair's row, then its day's), in order: a run never waits
  -- for a confirmation or a refund while holding a row that one waits for.
  select max(q.id) into last_change from private.pair_day_queue q;
  if last_change is not null then
    perform 1 from public.campaigns c
      where c.id in (select q.campaign_id from private.pair_day_queue q where q.id <= last_change)
      order by c.id for key share of c;
    perform 1 from public.campaign_source_stats st
      where (st.campaign_id, st.audience_source_id) in
        (select q.campaign_id, q.audience_source_id from private.pair_day_queue q
         where q.id <= last_change and q.to_pair_counters)
      order by st.id for no key update of st;
  end if;
  for i in 1 .. greatest(coalesce(p_max_batches, 20), 1) loop
    with taken as (
      select q.id from private.click_queue q order by q.id limit batch_size for update skip locked
    ), gone as (
      delete from private.click_queue q using taken where q.id = taken.id
      returning q.audience_source_id, q.day, q.counted, q.not_counted_reason
    ), days as (
      insert into public.source_daily_stats as d (audience_source_id, day, clicks, counted_clicks)
      select g.audience_source_id, g.day, count(*), count(*) filter (where g.counted)
      from gone g group by g.audience_source_id, g.day
      on conflict (audience_source_id, day) do update set
        clicks = d.clicks + excluded.clicks, counted_clicks = d.counted_clicks + excluded.counted_clicks
    ), reasons as (
      insert into public.not_counted_daily as r (kind, reason, audience_source_id, campaign_id, day, total)
      select 'click', g.not_counted_reason, g.audience_source_id, null, g.day, count(*)
      from gone g where not g.counted group by g.not_counted_reason, g.audience_source_id, g.day
      on conflict on constraint not_counted_daily_key do update set total = r.total + excluded.total
    )
    select count(*) into n from gone;
    drained := drained + n;
    exit when n < batch_size;
  end loop;
  -- The (campaign, source, day) changes, the same way: each taken by the one run that deletes it. A page view's views
  -- and clicks (to_pair_counters) go to the pair's counters as well; a not-counted click of a pair only to
  -- not_counted_daily.
  if last_change is not null then
    for i in 1 .. greatest(coalesce(p_max_batches, 20), 1) loop
      with taken as (
        select q.id from private.pair_day_queue q where q.id <= last_change order by q.id limit batch_size
        for update skip locked
      ), gone as (
        delete from private.pair_day_queue q using taken where q.id = taken.id
        returning q.campaign_id, q.audience_source_id, q.day, q.views, q.clicks, q.conversions, q.spend, q.earnings,
          q.to_pair_counters, q.not_counted_reason
      ), counters as (
        insert into public.campaign_source_stats as st (campaign_id, audience_source_id, total_views, total_clicks)
        select g.campaign_id, g.audience_source_id, sum(g.views), sum(g.clicks)
        from gone g where g.to_pair_counters group by g.campaign_id, g.audience_source_id
        on conflict (campaign_id, audience_source_id) do update set
          total_views = st.total_views + excluded.total_views, total_clicks = st.total_clicks + excluded.total_clicks,
          updated_at = now()
      ), pair_days as (
        insert into public.campaign_source_daily_stats as pd (campaign_id, audience_source_id, day, views, clicks)
        select g.campaign_id, g.audience_source_id, g.day, sum(g.views), sum(g.clicks)
        from gone g where g.to_pair_counters group by g.campaign_id, g.audience_source_id, g.day
        on conflict (campaign_id, audience_source_id, day) do update set
          views = pd.views + excluded.views, clicks = pd.clicks + excluded.clicks
      ), pair_reasons as (
        insert into public.not_counted_daily as r (kind, reason, audience_source_id, campaign_id, day, total)
        select 'click', g.not_counted_reason, g.audience_source_id, g.campaign_id, g.day, count(*)
        from gone g where g.not_counted_reason is not null
        group by g.not_counted_reason, g.audience_source_id, g.campaign_id, g.day
        on conflict on constraint not_counted_daily_key do update set total = r.total + excluded.total
      ), views as (
        insert into public.source_daily_stats as d (audience_source_id, day, views)
        select g.audience_source_id, g.day, sum(g.views) from gone g
        where g.not_counted_reason is null group by g.audience_source_id, g.day
        having sum(g.views) <> 0
        on conflict (audience_source_id, day) do update set views = d.views + excluded.views
      ), publishers as (
        insert into private.publisher_campaign_daily as p (publisher_id, day, campaign_id, views, clicks, conversions, spend, earnings)
        select s.publisher_id, g.day, g.campaign_id, sum(g.views), sum(g.clicks), sum(g.conversions), sum(g.spend), sum(g.earnings)
        from gone g join public.audience_sources s on s.id = g.audience_source_id
        where g.not_counted_reason is null
        group by s.publisher_id, g.day, g.campaign_id
        on conflict (publisher_id, day, campaign_id) do update set
          views = p.views + excluded.views, clicks = p.clicks + excluded.clicks,
          conversions = p.conversions + excluded.conversions, spend = p.spend + excluded.spend,
          earnings = p.earnings + excluded.earnings
      ), campaigns as (
        insert into private.campaign_daily as c (campaign_id, day, views, clicks, conversions, spend, earnings)
        select g.campaign_id, g.day, sum(g.views), sum(g.clicks), sum(g.conversions), sum(g.spend), sum(g.earnings)
        from gone g where g.not_counted_reason is null group by g.campaign_id, g.day
        on conflict (campaign_id, day) do update set
          views = c.views + excluded.views, clicks = c.clicks + excluded.clicks,
          conversions = c.conversions + excluded.conversions, spend = c.spend + excluded.spend,
          earnings = c.earnings + excluded.earnings
      )
      select count(*) into n from gone;
      exit when n < batch_size;
    end loop;
  end if;
  -- Every click and change queued before the oldest one still waiting (or before now, when none waits) is in the
  -- figures.
  select least((select q.queued_at from private.click_queue q order by q.id limit 1),
               (select q.queued_at from private.pair_day_queue q order by q.id limit 1)) into oldest;
  update private.figures_freshness f set drained_at = greatest(f.drained_at, least(coalesce(oldest, now()), now()));
  return drained;
end
$function$;
comment on function public.drain_click_queue(p_batch integer, p_max_batches integer) is 'Scheduled every 10 seconds (drain-click-queue), service role only: adds queued clicks to source_daily_stats and not_counted_daily, and queued (campaign, source, day) changes to campaign_source_stats and campaign_source_daily_stats (page views and attributions), not_counted_daily (not-counted clicks per campaign), source_daily_stats.views, publisher_campaign_daily and campaign_daily, in batches of p_batch (at most p_max_batches a run each), one run at a time (a run that finds another working returns 0 at once); each queued row is taken once (for update skip locked), with the day it was queued for; returns how many clicks it took.';
revoke execute on function public.drain_click_queue(p_batch integer, p_max_batches integer) from anon, authenticated, public;

-- The per-pair figures say how fresh they are, as figure_totals and source_totals do.
drop function public.campaign_source_figures(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date);
create function public.campaign_source_figures(p_campaign_id uuid default null::uuid, p_source_id uuid default null::uuid, p_from date default null::date, p_to date default null::date)
 returns table(campaign_id uuid, campaign_name text, campaign_status text, source_id uuid, source_name text, views bigint, clicks bigint, conversions bigint, ctr numeric, spend numeric, earnings numeric, updated_at timestamp with time zone)
 language plpgsql
 stable security definer
 set search_path to ''
 set plan_cache_mode to 'force_custom_plan'
as $function$
declare
  v record;
  fresh timestamp with time zone := public.figures_updated_at();
begin
  perform private.check_figures_range(p_from, p_to);
  perform private.check_figures_scope(p_campaign_id, p_source_id);
  select * into v from private.figures_viewer();
  if p_from is null then
    return query
    select c.id, c.name, c.status, s.id, s.name, st.total_views::bigint, st.total_clicks::bigint,
      st.total_conversions::bigint,
      (case when st.total_clicks > 0 then round(st.total_conversions * 100.0 / st.total_clicks, 2) else 0 end)::numeric(7, 2),
      st.total_spend, st.total_earnings, fresh
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
      (case when d.k > 0 then round(d.n * 100.0 / d.k, 2) else 0 end)::numeric(7, 2), d.sp, d.ea, fresh
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
comment on function public.campaign_source_figures(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) is 'Figures per (campaign, source) — views, clicks, conversions, CTR (conversions per 100 clicks), spend, earnings — for the caller''s campaigns, the caller''s sources, or (admins) any; all time, or summed over a date range of at most a year; updated_at (figures_updated_at) on every row: views and clicks lag by at most one run of drain-click-queue.';
revoke execute on function public.campaign_source_figures(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) from anon, public;
