-- Issue 27: a click path without a hot row.
--
-- A click used to add itself, in its own transaction, to its source's row of the day (source_daily_stats) and, when
-- it did not count, to the reason's row (not_counted_daily): every concurrent click on one source waited for the
-- same row lock (hot source 64–73% of the same load spread over 200 sources, PostgreSQL 15, concurrency 64).
-- Now the click transaction only appends: the click itself, and one row to an append-only queue
-- (private.click_queue, a plain insert that locks nothing shared). A scheduled job (drain-click-queue, every
-- 10 seconds) takes queued rows in batches of up to 10,000 with `for update skip locked`, deletes them and adds them
-- to the aggregates with one set-based upsert per table in the same statement: a row is counted by the run that
-- deletes it, so two runs at once never count a click twice, and a click that commits between runs is counted by
-- the next one. Figures lag by at most one run; figures_updated_at() (and the updated_at of figure_totals and
-- source_totals) says when the aggregates last took every queued click.
--
-- Money stays off this path: the paid-subscriber rule (confirm_subscription, subscribe_to_newsletter) reads
-- link_clicks itself; conversions, spend and earnings are still written in the confirming transaction. Readers of
-- the click aggregates are figures and the directory's quality (refresh_source_quality), never a money rule.

create table private.click_queue (
  id bigint generated always as identity,
  audience_source_id uuid not null,
  day date not null,
  counted boolean not null,
  not_counted_reason text,
  queued_at timestamp with time zone default now() not null,
  constraint click_queue_pkey primary key (id)
);
alter table private.click_queue enable row level security;
revoke all on table private.click_queue from public, anon, authenticated;
comment on table private.click_queue is 'Clicks not yet added to source_daily_stats and not_counted_daily: appended by the click''s transaction (link_clicks_daily), taken and deleted by drain_click_queue.';

create table private.figures_freshness (
  id boolean default true not null,
  drained_at timestamp with time zone default now() not null,
  constraint figures_freshness_pkey primary key (id),
  constraint figures_freshness_id_check check (id)
);
alter table private.figures_freshness enable row level security;
revoke all on table private.figures_freshness from public, anon, authenticated;
comment on table private.figures_freshness is 'One row: every click queued before drained_at is in the click aggregates (kept by drain_click_queue).';
insert into private.figures_freshness (id, drained_at) values (true, now());

create or replace function private.link_click_daily()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  -- An append, not an upsert: no row shared with other clicks is locked (drain_click_queue adds it up).
  insert into private.click_queue (audience_source_id, day, counted, not_counted_reason)
  values (new.audience_source_id, private.utc_day(new.created_at), new.counted, new.not_counted_reason);
  return null;
end
$function$;
comment on function private.link_click_daily() is 'Internal trigger: queues every click for its source''s day and, when it did not count, its reason (drain_click_queue adds the queue to the aggregates).';

create function public.drain_click_queue(p_batch integer default 10000, p_max_batches integer default 20)
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
  -- Every click queued before the oldest one still waiting (or before now, when none waits) is in the figures.
  select q.queued_at into oldest from private.click_queue q order by q.id limit 1;
  update private.figures_freshness f set drained_at = greatest(f.drained_at, least(coalesce(oldest, now()), now()));
  return drained;
end
$function$;
comment on function public.drain_click_queue(p_batch integer, p_max_batches integer) is 'Scheduled every 10 seconds (drain-click-queue), service role only: adds queued clicks to source_daily_stats and not_counted_daily in batches of p_batch (at most p_max_batches a run), each click once even when two runs overlap (for update skip locked); returns how many it took.';
revoke execute on function public.drain_click_queue(p_batch integer, p_max_batches integer) from anon, authenticated, public;

create function public.figures_updated_at()
 returns timestamp with time zone
 language sql
 stable security definer
 set search_path to ''
as $function$
  select f.drained_at from private.figures_freshness f
$function$;
comment on function public.figures_updated_at() is 'When the click figures were last brought up to date: every click before it is counted in them (they lag the clicks by at most one run of drain-click-queue).';
revoke execute on function public.figures_updated_at() from anon, public;

-- The headline figures say how fresh they are.
drop function public.figure_totals(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date);
create function public.figure_totals(p_campaign_id uuid default null::uuid, p_source_id uuid default null::uuid, p_from date default null::date, p_to date default null::date)
 returns table(views bigint, clicks bigint, conversions bigint, ctr numeric, spend numeric, earnings numeric, updated_at timestamp with time zone)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce(sum(f.views), 0)::bigint, coalesce(sum(f.clicks), 0)::bigint, coalesce(sum(f.conversions), 0)::bigint,
    (case when coalesce(sum(f.clicks), 0) > 0 then round(sum(f.conversions) * 100.0 / sum(f.clicks), 2) else 0 end)::numeric(7, 2),
    coalesce(sum(f.spend), 0)::numeric(12, 2), coalesce(sum(f.earnings), 0)::numeric(12, 2), public.figures_updated_at()
  from public.campaign_source_figures(p_campaign_id, p_source_id, p_from, p_to) f
$function$;
comment on function public.figure_totals(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) is 'The sum of campaign_source_figures for the same arguments: one row of views, clicks, conversions, CTR, spend and earnings, with updated_at (figures_updated_at).';
revoke execute on function public.figure_totals(p_campaign_id uuid, p_source_id uuid, p_from date, p_to date) from anon, public;

drop function public.source_totals(p_from date, p_to date);
create function public.source_totals(p_from date default null::date, p_to date default null::date)
 returns table(clicks bigint, counted_clicks bigint, subscriptions bigint, confirmations bigint, conversions bigint, earnings numeric, updated_at timestamp with time zone)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce(sum(f.clicks), 0)::bigint, coalesce(sum(f.counted_clicks), 0)::bigint,
    coalesce(sum(f.subscriptions), 0)::bigint, coalesce(sum(f.confirmations), 0)::bigint,
    coalesce(sum(f.conversions), 0)::bigint, coalesce(sum(f.earnings), 0)::numeric(12, 2), public.figures_updated_at()
  from public.source_figures(null, p_from, p_to) f
$function$;
comment on function public.source_totals(p_from date, p_to date) is 'The signed-in publisher''s sources together: the sum of source_figures over a date range (or all time), with updated_at (figures_updated_at).';
revoke execute on function public.source_totals(p_from date, p_to date) from anon, public;

select cron.schedule('drain-click-queue', '10 seconds', $job$select public.drain_click_queue()$job$);
