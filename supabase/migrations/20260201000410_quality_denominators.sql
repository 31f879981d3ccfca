-- Quality figures nobody else can sink (issue 21): 400 bot clicks took a rival's public counted share from
-- 100% to 5.9%, because every click was in the denominator, and anyone can start subscriptions through a
-- rival's link that are never confirmed. Now:
-- * counted share = counted clicks / clicks that were neither bots nor refused (bot user agent, link preview
--   HEAD request, rate-limited address): traffic anyone can aim at a link no longer counts against it;
-- * confirmation rate = confirmed / started among subscriptions whose click counted (a real visitor of the
--   source), kept per day beside the other figures in source_daily_stats.

alter table public.source_daily_stats
  add column backed_subscriptions integer not null default 0,
  add column backed_confirmations integer not null default 0;
comment on column public.source_daily_stats.backed_subscriptions is
  'Subscriptions started through the source that day whose click counted (the confirmation rate''s denominator).';
comment on column public.source_daily_stats.backed_confirmations is
  'Confirmations that day of subscriptions whose click counted (the confirmation rate''s numerator).';

create function private.subscription_backed_daily()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
comment on function private.subscription_backed_daily() is
  'Trigger: counts subscriptions started and confirmed through a counted click, per source and day.';
revoke execute on function private.subscription_backed_daily() from public, anon, authenticated, service_role;
create trigger newsletter_subscriptions_backed_daily after insert or update on public.newsletter_subscriptions
  for each row execute function private.subscription_backed_daily();

-- What is already there, counted the same way.
with backed as (
  select n.audience_source_id as id, private.utc_day(coalesce(n.attributed_at, n.created_at)) as day, 1 as subs, 0 as confs
  from public.newsletter_subscriptions n join public.link_clicks l on l.id = n.click_id and l.counted
  where n.audience_source_id is not null
  union all
  select n.audience_source_id, private.utc_day(n.confirmed_at), 0, 1
  from public.newsletter_subscriptions n join public.link_clicks l on l.id = n.click_id and l.counted
  where n.audience_source_id is not null and n.confirmed_at is not null
), days as (
  select id, day, sum(subs)::integer as subs, sum(confs)::integer as confs from backed group by id, day
)
insert into public.source_daily_stats as d (audience_source_id, day, backed_subscriptions, backed_confirmations)
select id, day, subs, confs from days
on conflict (audience_source_id, day) do update set
  backed_subscriptions = excluded.backed_subscriptions, backed_confirmations = excluded.backed_confirmations;

create or replace function public.refresh_source_quality(p_today date default null)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  today date := coalesce(p_today, private.utc_day(now()));
  changed integer;
begin
  with window_totals as (
    select d.audience_source_id as id, sum(d.clicks) as clicks, sum(d.counted_clicks) as counted,
      sum(d.backed_subscriptions) as subs, sum(d.backed_confirmations) as confs
    from public.source_daily_stats d
    where d.day between today - 29 and today
    group by d.audience_source_id
  ), refused as (
    -- Clicks anyone can aim at a link: bots, link previews and addresses over the click rate limit.
    select n.audience_source_id as id, sum(n.total) as clicks
    from public.not_counted_daily n
    where n.kind = 'click' and n.campaign_id is null and n.day between today - 29 and today
      and n.reason in ('bot_user_agent', 'head_request', 'rate_limited')
    group by n.audience_source_id
  ), fresh as (
    -- Every source with clicks in the window, and every source rated before (it may have fallen out).
    select s.id, nullif(coalesce(w.counted, 0), 0)::integer as counted,
      case when w.counted >= 20 and w.subs > 0 then round(least(w.confs, w.subs) * 100.0 / w.subs, 1) end as confirmation_rate,
      case when w.counted >= 20
        then round(w.counted * 100.0 / greatest(w.clicks - coalesce(r.clicks, 0), w.counted), 1) end as counted_share
    from public.audience_sources s
    left join window_totals w on w.id = s.id
    left join refused r on r.id = s.id
    where w.id is not null or s.quality_counted_clicks is not null
  )
  update public.audience_sources s set
    quality_counted_clicks = f.counted, quality_confirmation_rate = f.confirmation_rate,
    quality_counted_share = f.counted_share, quality_refreshed_at = now()
  from fresh f
  where s.id = f.id
    and (s.quality_counted_clicks, s.quality_confirmation_rate, s.quality_counted_share)
        is distinct from (f.counted, f.confirmation_rate, f.counted_share);
  get diagnostics changed = row_count;
  return changed;
end
$$;
comment on function public.refresh_source_quality(date) is
  'Scheduled every 10 minutes (refresh-source-quality), service role only: recomputes each source''s 30-day counted clicks, confirmation rate (among subscriptions whose click counted) and counted share (of clicks that were neither bots nor refused); returns how many sources changed.';

comment on column public.audience_sources.quality_confirmation_rate is
  'Of the subscriptions started through this source in the last 30 days whose click counted, the % confirmed; null below 20 counted clicks or without such subscriptions.';
comment on column public.audience_sources.quality_counted_share is
  'Of this source''s clicks in the last 30 days that were neither bots, link previews nor rate-limited, the % that counted; null below 20 counted clicks.';

select public.refresh_source_quality();
