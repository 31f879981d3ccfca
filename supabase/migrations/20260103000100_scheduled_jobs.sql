-- Money that settles by itself: the recurring work of the marketplace, scheduled with pg_cron so the same
-- migration runs on hosted Supabase (the real extensions) and locally (supabase/local emulates both; see
-- supabase/local/cron). Every job is idempotent and safe when two runs overlap: each takes its rows with
-- `for update skip locked`, so a second run skips what the first holds and a retry finishes what a failed
-- run left, because a run is one transaction that commits whole or not at all.

-- Supabase's documented way to enable them (pg_cron in pg_catalog; both create their own schema, cron/net).
create extension if not exists pg_cron with schema pg_catalog;
create extension if not exists pg_net with schema extensions;

-- Raw IPs after 30 days, in batches taken with skip locked: a daily run never waits on another one or on
-- a click being recorded, and a run interrupted half-way leaves the rest to the next.
create or replace function public.purge_click_ips(p_older_than interval default interval '30 days')
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  purged integer := 0;
  n integer;
begin
  loop
    with batch as (
      select id from public.link_clicks
      where ip is not null and created_at < now() - p_older_than
      limit 5000
      for update skip locked
    )
    update public.link_clicks c set ip = null from batch where c.id = batch.id;
    get diagnostics n = row_count;
    purged := purged + n;
    exit when n = 0;
  end loop;
  -- The addresses a subscription was made and confirmed from are raw IPs too.
  loop
    with batch as (
      select id from public.newsletter_subscriptions
      where (subscribe_ip is not null or confirm_ip is not null) and created_at < now() - p_older_than
      limit 5000
      for update skip locked
    )
    update public.newsletter_subscriptions s set subscribe_ip = null, confirm_ip = null from batch where s.id = batch.id;
    get diagnostics n = row_count;
    purged := purged + n;
    exit when n = 0;
  end loop;
  return purged;
end
$$;
comment on function public.purge_click_ips(interval) is
  'Scheduled daily (purge-click-ips), service role only: raw IPs of clicks and subscriptions are kept only as long as fraud review needs them (30 days); the visitor hash stays. Returns how many rows it cleared.';
revoke execute on function public.purge_click_ips(interval) from public, anon, authenticated;
grant execute on function public.purge_click_ips(interval) to service_role;
create index if not exists link_clicks_ip_age_idx on public.link_clicks (created_at) where ip is not null;
create index if not exists newsletter_subscriptions_ip_age_idx on public.newsletter_subscriptions (created_at)
  where subscribe_ip is not null or confirm_ip is not null;

-- Holds whose 7-day screening ended become completed debits, and the matching earnings become available.
select cron.schedule('settle-matured-holds', '* * * * *', 'select public.settle_matured_holds()');
-- Reservations of subscriptions neither confirmed nor rejected within 48 hours go back to the advertiser.
select cron.schedule('expire-reservations', '* * * * *', 'select public.expire_reservations()');
-- 03:17 UTC, off the hour that everyone else's daily jobs pick.
select cron.schedule('purge-click-ips', '17 3 * * *', 'select public.purge_click_ips()');
-- pg_cron keeps every run forever unless told otherwise; two weeks is enough to see what went wrong.
select cron.schedule('purge-job-history', '27 3 * * *', $$delete from cron.job_run_details where end_time < now() - interval '14 days'$$);
