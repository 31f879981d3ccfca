-- Issue 36, safeupdate. Hosted Supabase loads pg-safeupdate for the API roles (PostgREST's sessions), which refuses
-- an UPDATE or DELETE without a WHERE clause ("UPDATE requires a WHERE clause", SQLSTATE 21000) wherever it runs in
-- that session: inside a function called through the API as much as from PostgREST itself. drain_click_queue ended
-- with `update private.figures_freshness … ` without one: a service-role rpc of it would fail on hosted (the cron job
-- runs as postgres, outside safeupdate, so it worked there). The stand-in cannot load safeupdate (no Debian package,
-- no PGlite build); supabase/tests/safeupdate.test.ts reads every function body with PostgreSQL's parser instead and
-- fails on any such statement.
--
-- The fix is a real condition, not `where true`: the one row moves only forward, so it is written only when the new
-- mark is later than the one it holds (the same result as the greatest() it replaces, without a write when nothing
-- moved).

create or replace function public.drain_click_queue(p_batch integer default 10000, p_max_batches integer default 20)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
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
  -- figures. The mark only moves forward; the WHERE says so (and safeupdate, on hosted, requires one).
  select least((select q.queued_at from private.click_queue q order by q.id limit 1),
               (select q.queued_at from private.pair_day_queue q order by q.id limit 1),
               now()) into oldest;
  update private.figures_freshness f set drained_at = oldest where f.drained_at < oldest;
  return drained;
end
$$;

comment on function public.drain_click_queue(p_batch integer, p_max_batches integer) is 'Scheduled every 10 seconds (drain-click-queue), service role only: adds queued clicks to source_daily_stats and not_counted_daily, and queued (campaign, source, day) changes to campaign_source_stats and campaign_source_daily_stats (page views and attributions), not_counted_daily (not-counted clicks per campaign), source_daily_stats.views, publisher_campaign_daily and campaign_daily, in batches of p_batch (at most p_max_batches a run each), one run at a time (a run that finds another working returns 0 at once); each queued row is taken once (for update skip locked), with the day it was queued for; returns how many clicks it took.';
revoke execute on function public.drain_click_queue(p_batch integer, p_max_batches integer) from public, anon, authenticated;
grant execute on function public.drain_click_queue(p_batch integer, p_max_batches integer) to service_role;
