-- Quality in the directory ("Discover Trusted Audiences" made true): once a source has at least 20 counted
-- clicks in the last 30 days, its card shows its confirmation rate (subscriptions started through it that
-- were confirmed, in %) and the share of its clicks that counted (%), and visitors and advertisers can sort
-- by either. A rolling 30-day window cannot be kept by triggers alone (days fall out of it without an event),
-- so the pg_cron job refresh-source-quality recomputes it every 10 minutes from source_daily_stats (itself
-- kept in the same transaction as every click and subscription) and writes only the rows that changed.
-- The figures live on audience_sources so the directory's sorted first page comes from one partial index,
-- never from a scan of every source.

alter table public.audience_sources
  add column quality_counted_clicks integer,
  add column quality_confirmation_rate numeric(5, 1),
  add column quality_counted_share numeric(5, 1),
  add column quality_refreshed_at timestamptz;
comment on column public.audience_sources.quality_counted_clicks is 'Counted clicks in the last 30 days (refresh-source-quality); null when there were none.';
comment on column public.audience_sources.quality_confirmation_rate is
  'Of the subscriptions started through this source in the last 30 days, the % confirmed; null below 20 counted clicks or without subscriptions.';
comment on column public.audience_sources.quality_counted_share is
  'Of this source''s clicks in the last 30 days, the % that counted; null below 20 counted clicks.';

create index audience_sources_public_confirmation_idx on public.audience_sources
  (quality_confirmation_rate desc nulls last, created_at desc, id desc) where status in ('approved', 'verified', 'live');
create index audience_sources_public_counted_share_idx on public.audience_sources
  (quality_counted_share desc nulls last, created_at desc, id desc) where status in ('approved', 'verified', 'live');

-- The browser never writes these figures (a publisher may edit their own source's other columns).
create function private.guard_source_quality()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if not public.is_api_caller() then
    return new;
  end if;
  if tg_op = 'INSERT' then
    new.quality_counted_clicks := null;
    new.quality_confirmation_rate := null;
    new.quality_counted_share := null;
    new.quality_refreshed_at := null;
  elsif (new.quality_counted_clicks, new.quality_confirmation_rate, new.quality_counted_share, new.quality_refreshed_at)
        is distinct from (old.quality_counted_clicks, old.quality_confirmation_rate, old.quality_counted_share, old.quality_refreshed_at) then
    raise exception 'Quality figures are computed by the platform' using errcode = '42501';
  end if;
  return new;
end
$$;
comment on function private.guard_source_quality() is 'Internal trigger: only the refresh job writes a source''s quality figures.';
revoke execute on function private.guard_source_quality() from public, anon, authenticated, service_role;
create trigger audience_sources_guard_quality before insert or update on public.audience_sources
  for each row execute function private.guard_source_quality();

create function public.refresh_source_quality(p_today date default null)
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
      sum(d.subscriptions) as subs, sum(d.confirmations) as confs
    from public.source_daily_stats d
    where d.day between today - 29 and today
    group by d.audience_source_id
  ), fresh as (
    -- Every source with clicks in the window, and every source rated before (it may have fallen out).
    select s.id, nullif(coalesce(w.counted, 0), 0)::integer as counted,
      case when w.counted >= 20 and w.subs > 0 then round(least(w.confs, w.subs) * 100.0 / w.subs, 1) end as confirmation_rate,
      case when w.counted >= 20 then round(w.counted * 100.0 / w.clicks, 1) end as counted_share
    from public.audience_sources s
    left join window_totals w on w.id = s.id
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
  'Scheduled every 10 minutes (refresh-source-quality), service role only: recomputes each source''s 30-day counted clicks, confirmation rate and counted share from source_daily_stats; returns how many sources changed.';
revoke execute on function public.refresh_source_quality(date) from public, anon, authenticated;
grant execute on function public.refresh_source_quality(date) to service_role;

select public.refresh_source_quality();
select cron.schedule('refresh-source-quality', '*/10 * * * *', 'select public.refresh_source_quality()');
