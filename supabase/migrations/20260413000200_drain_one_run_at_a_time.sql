-- Overlapping drain_click_queue runs could deadlock on PostgreSQL (supabase/tests/dashboard-aggregates.test.ts
-- "takes each queued change once when two runs overlap" failed with `deadlock detected` 1–6 times in 32): each run
-- keeps the aggregate rows it upserted locked until it ends, and two runs take source_daily_stats rows in different
-- orders (the click loop, then the page-view loop). Runs now take one transaction-scoped advisory lock first; a run
-- that cannot have it returns 0 at once, leaving the queue to the run in progress and the next scheduled one.
-- The queue rows are still taken with `for update skip locked`, so nothing is ever counted twice.

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
begin
  -- One run at a time: two overlapping runs upsert the same aggregate rows in different orders and can deadlock on
  -- PostgreSQL. A run that finds another one working leaves the queue to it (and to the next run, 10 s later).
  if not pg_try_advisory_xact_lock(hashtextextended('growletter:drain_click_queue', 0)) then
    return 0;
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
  -- The (campaign, source, day) changes, the same way: each taken by the one run that deletes it.
  for i in 1 .. greatest(coalesce(p_max_batches, 20), 1) loop
    with taken as (
      select q.id from private.pair_day_queue q order by q.id limit batch_size for update skip locked
    ), gone as (
      delete from private.pair_day_queue q using taken where q.id = taken.id
      returning q.campaign_id, q.audience_source_id, q.day, q.views, q.clicks, q.conversions, q.spend, q.earnings
    ), views as (
      insert into public.source_daily_stats as d (audience_source_id, day, views)
      select g.audience_source_id, g.day, sum(g.views) from gone g group by g.audience_source_id, g.day
      having sum(g.views) <> 0
      on conflict (audience_source_id, day) do update set views = d.views + excluded.views
    ), publishers as (
      insert into private.publisher_campaign_daily as p (publisher_id, day, campaign_id, views, clicks, conversions, spend, earnings)
      select s.publisher_id, g.day, g.campaign_id, sum(g.views), sum(g.clicks), sum(g.conversions), sum(g.spend), sum(g.earnings)
      from gone g join public.audience_sources s on s.id = g.audience_source_id
      group by s.publisher_id, g.day, g.campaign_id
      on conflict (publisher_id, day, campaign_id) do update set
        views = p.views + excluded.views, clicks = p.clicks + excluded.clicks,
        conversions = p.conversions + excluded.conversions, spend = p.spend + excluded.spend,
        earnings = p.earnings + excluded.earnings
    ), campaigns as (
      insert into private.campaign_daily as c (campaign_id, day, views, clicks, conversions, spend, earnings)
      select g.campaign_id, g.day, sum(g.views), sum(g.clicks), sum(g.conversions), sum(g.spend), sum(g.earnings)
      from gone g group by g.campaign_id, g.day
      on conflict (campaign_id, day) do update set
        views = c.views + excluded.views, clicks = c.clicks + excluded.clicks,
        conversions = c.conversions + excluded.conversions, spend = c.spend + excluded.spend,
        earnings = c.earnings + excluded.earnings
    )
    select count(*) into n from gone;
    exit when n < batch_size;
  end loop;
  -- Every click and change queued before the oldest one still waiting (or before now, when none waits) is in the
  -- figures.
  select least((select q.queued_at from private.click_queue q order by q.id limit 1),
               (select q.queued_at from private.pair_day_queue q order by q.id limit 1)) into oldest;
  update private.figures_freshness f set drained_at = greatest(f.drained_at, least(coalesce(oldest, now()), now()));
  return drained;
end
$function$;
comment on function public.drain_click_queue(p_batch integer, p_max_batches integer) is 'Scheduled every 10 seconds (drain-click-queue), service role only: adds queued clicks to source_daily_stats and not_counted_daily, and queued (campaign, source, day) changes to source_daily_stats.views, publisher_campaign_daily and campaign_daily, in batches of p_batch (at most p_max_batches a run each), one run at a time (a run that finds another working returns 0 at once); each queued row is taken once (for update skip locked); returns how many clicks it took.';
