-- Issue 27, third step: link_clicks partitioned by month of the click time.
--
-- link_clicks grows without bound (raw IPs are purged after 30 days, rows are not). It is now a declarative
-- range-partitioned table on created_at, one partition per UTC month, so an old month can be detached (and moved to
-- cheap storage) without a long delete, and the click path's indexes stay the size of the months being written.
-- The same SQL runs on PGlite and PostgreSQL 15. On hosted Supabase, pg_partman creates the months ahead instead of
-- create_click_partitions (docs/architecture.md "Scale").
--
-- Where the partitions live: the schema `partitions`, which no API role can use. The API reads and writes only the
-- parent (its row-level security and column grants apply there); the months themselves are not part of the schema
-- snapshot, since which months exist depends on the day the migration ran.
--
-- What the partition key changed:
-- * The primary key is (id, created_at): a partitioned table's unique keys must include the partition key. The id
--   stays unique in practice (gen_random_uuid); a lookup by id alone probes each month's primary-key index, and the
--   paid-subscriber rule (click_backs_subscription) also bounds created_at to the 24 hours before the subscription,
--   so it reads one or two months.
-- * newsletter_subscriptions.click_id can no longer be a foreign key to link_clicks(id) (no unique key on id alone).
--   It is kept by triggers: a subscription that names a click share-locks that click's row (for key share, as the key
--   did) and is refused when it does not exist ("This subscription names a click that does not exist."); deleting
--   clicks through link_clicks clears the subscriptions' click_id, as `on delete set null` did. Money never depends
--   on a click that is gone: without its click a subscription is not paid (no_click).
-- * The aggregate queue is filled by a statement-level trigger with a transition table: a row-level AFTER INSERT
--   trigger would also fire when an update moves a click to another month's partition, queueing it twice.
-- * link_clicks.campaign_id keeps its foreign key: a click is inserted without a campaign (the key is not checked
--   on null), and the campaign is set once per click, by its first attribution.
--
-- Old clicks are kept: nothing detaches a month by itself (money rules and disputes read clicks).
-- detach_click_partition detaches one month on demand, only when the month ended more than 12 months ago and no
-- open dispute names a source with clicks in it.

create schema partitions;
comment on schema partitions is 'The months of link_clicks (partitioned by created_at): reached only through public.link_clicks; no API role may use this schema.';
revoke all on schema partitions from public;

-- The subscriptions' key to the clicks, kept by triggers below.
alter table public.newsletter_subscriptions drop constraint newsletter_subscriptions_click_id_fkey;

-- The table as it was, set aside with its indexes, to be copied and dropped.
alter table public.link_clicks set schema private;
alter table private.link_clicks rename to link_clicks_unpartitioned;

create table public.link_clicks (
  id uuid default gen_random_uuid() not null,
  session_id uuid generated always as (id) stored,
  audience_source_id uuid not null,
  campaign_id uuid,
  viewed_campaign_ids uuid[] default '{}'::uuid[] not null,
  page_views integer default 0 not null,
  unique_views integer default 0 not null,
  counted boolean not null,
  not_counted_reason text,
  visitor_hash text not null,
  fingerprint text,
  ip text,
  country text,
  city text,
  region text,
  user_agent text,
  referrer text,
  browser text,
  language text,
  timezone text,
  platform text,
  screen_width integer,
  screen_height integer,
  viewport_width integer,
  viewport_height integer,
  cookies_enabled boolean,
  do_not_track text,
  hardware_concurrency integer,
  device_memory numeric,
  connection jsonb,
  device_info jsonb default '{}'::jsonb not null,
  created_at timestamp with time zone default now() not null,
  view_window_started_at timestamp with time zone,
  view_window_count integer default 0 not null,
  attributed_campaign_ids uuid[] default '{}'::uuid[] not null,
  constraint link_clicks_pkey primary key (id, created_at),
  constraint link_clicks_not_counted_reason_check check ((not_counted_reason = any ((enum_range(null::public.not_counted_reason))::text[]))),
  constraint link_clicks_reason_when_not_counted check ((counted = (not_counted_reason is null))),
  constraint link_clicks_view_window_count_check check ((view_window_count >= 0)),
  constraint link_clicks_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete restrict
) partition by range (created_at);
alter table public.link_clicks enable row level security;
create index link_clicks_campaign_idx on public.link_clicks using btree (campaign_id) where (campaign_id is not null);
create index link_clicks_ip_age_idx on public.link_clicks using btree (created_at) where (ip is not null);
create index link_clicks_ip_created_idx on public.link_clicks using btree (ip, created_at desc) where (ip is not null);
create index link_clicks_source_created_idx on public.link_clicks using btree (audience_source_id, created_at desc);
create index link_clicks_source_visitor_idx on public.link_clicks using btree (audience_source_id, visitor_hash, created_at desc);
comment on table public.link_clicks is 'One row per magic-link click (the click id is the session id). Raw IPs are kept for fraud review only (30 days). Partitioned by UTC month of created_at (schema partitions; create_click_partitions, detach_click_partition).';
comment on column public.link_clicks.view_window_count is 'Page views recorded in the current one-minute window (view_window_started_at): at most 10 count.';
comment on column public.link_clicks.attributed_campaign_ids is 'Campaigns this click belongs to (opened or subscribed to by its visitor); each pair counts one click, once.';
revoke select, insert, update, delete, truncate, references, trigger on table public.link_clicks from anon, authenticated;
revoke truncate, references, trigger on table public.link_clicks from service_role;
grant select (id, session_id, audience_source_id, campaign_id, viewed_campaign_ids, page_views, unique_views, counted, not_counted_reason, created_at, attributed_campaign_ids) on public.link_clicks to authenticated;

-- A click whose month has no partition yet (the scheduler behind, a backdated row) lands here, never fails.
create table partitions.link_clicks_default partition of public.link_clicks default;
alter table partitions.link_clicks_default enable row level security;
comment on table partitions.link_clicks_default is 'Clicks whose month has no partition of its own yet; ensure_click_partition moves them into their month.';

create function private.click_partition_name(p_month date)
 returns text
 language sql
 immutable
 set search_path to ''
as $function$
  select 'link_clicks_' || to_char(p_month, 'YYYY_MM')
$function$;
comment on function private.click_partition_name(p_month date) is 'Internal: the name of the partitions.link_clicks_YYYY_MM table that holds the clicks of p_month''s UTC month.';
revoke execute on function private.click_partition_name(p_month date) from public;

create function private.ensure_click_partition(p_month date)
 returns boolean
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  first_day date := make_date(extract(year from p_month)::integer, extract(month from p_month)::integer, 1);
  -- UTC month bounds, whatever the session's time zone (adding a month to a timestamptz would follow its DST).
  lo timestamp with time zone := first_day::timestamp at time zone 'UTC';
  hi timestamp with time zone := (first_day + interval '1 month')::timestamp at time zone 'UTC';
  name text := private.click_partition_name(first_day);
  columns text;
begin
  if p_month is null then
    raise exception 'Which month? The month is missing.' using errcode = '22023';
  end if;
  if to_regclass(format('partitions.%I', name)) is not null then
    return false;
  end if;
  -- Two runs at once create the month once.
  perform pg_advisory_xact_lock(hashtextextended('link_clicks partitions', 0));
  if to_regclass(format('partitions.%I', name)) is not null then
    return false;
  end if;
  -- Built beside the table, filled with that month's clicks from the default partition (if any), then attached:
  -- attaching takes no lock that stops clicks on the other months, and moving the rows this way fires no trigger
  -- (the clicks are already queued for the figures).
  execute format('create table partitions.%I (like public.link_clicks including defaults including generated including constraints including indexes)', name);
  execute format('alter table partitions.%I enable row level security', name);
  select string_agg(quote_ident(a.attname), ', ' order by a.attnum) into columns
  from pg_attribute a
  where a.attrelid = 'public.link_clicks'::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = '';
  execute format('insert into partitions.%I (%s) select %s from partitions.link_clicks_default where created_at >= $1 and created_at < $2',
    name, columns, columns) using lo, hi;
  delete from partitions.link_clicks_default where created_at >= lo and created_at < hi;
  execute format('alter table public.link_clicks attach partition partitions.%I for values from (%L) to (%L)', name, lo, hi);
  execute format('comment on table partitions.%I is %L', name,
    format('The clicks of %s (UTC), a partition of public.link_clicks.', to_char(first_day, 'FMMonth YYYY')));
  return true;
end
$function$;
comment on function private.ensure_click_partition(p_month date) is 'Internal: creates the partition of link_clicks for p_month''s UTC month (moving that month''s clicks out of the default partition); false when it exists.';
revoke execute on function private.ensure_click_partition(p_month date) from public;

create function public.create_click_partitions(p_months_ahead integer default 2)
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  this_month date := (now() at time zone 'UTC')::date;
  created integer := 0;
  m date;
begin
  if p_months_ahead is null or p_months_ahead < 0 or p_months_ahead > 24 then
    raise exception 'Create 0 to 24 months ahead.' using errcode = '22023';
  end if;
  for i in 0 .. p_months_ahead loop
    if private.ensure_click_partition((this_month + make_interval(months => i))::date) then
      created := created + 1;
    end if;
  end loop;
  -- Clicks that landed in the default partition (backdated, or the job behind) get their month too.
  for m in select distinct date_trunc('month', d.created_at at time zone 'UTC')::date
           from partitions.link_clicks_default d loop
    if private.ensure_click_partition(m) then
      created := created + 1;
    end if;
  end loop;
  return created;
end
$function$;
comment on function public.create_click_partitions(p_months_ahead integer) is 'Scheduled daily (create-click-partitions), service role only: makes sure link_clicks has a partition for this UTC month, the p_months_ahead after it and every month of a click in the default partition; returns how many it created.';
revoke execute on function public.create_click_partitions(p_months_ahead integer) from anon, authenticated, public;

create function public.detach_click_partition(p_month date)
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  first_day date := make_date(extract(year from p_month)::integer, extract(month from p_month)::integer, 1);
  oldest_kept date := (date_trunc('month', now() at time zone 'UTC') - interval '12 months')::date;
  name text := private.click_partition_name(first_day);
  open_dispute boolean;
begin
  if p_month is null then
    raise exception 'Which month? The month is missing.' using errcode = '22023';
  end if;
  if first_day >= oldest_kept then
    raise exception 'Clicks are kept for 12 full months: the first month that can be detached is %.',
      to_char(oldest_kept - interval '1 month', 'FMMonth YYYY') using errcode = '22023';
  end if;
  if to_regclass(format('partitions.%I', name)) is null
     or not exists (select 1 from pg_inherits i where i.inhrelid = to_regclass(format('partitions.%I', name))
                    and i.inhparent = 'public.link_clicks'::regclass) then
    raise exception 'No clicks of % are attached to link_clicks.', to_char(first_day, 'FMMonth YYYY') using errcode = 'P0002';
  end if;
  execute format('select exists (select 1 from public.disputes d where d.status = %L and exists (
      select 1 from partitions.%I c where c.audience_source_id = d.audience_source_id))', 'open', name)
    into open_dispute;
  if open_dispute then
    raise exception 'An open dispute names a source with clicks in %: decide it before detaching that month.',
      to_char(first_day, 'FMMonth YYYY') using errcode = '55000';
  end if;
  execute format('alter table public.link_clicks detach partition partitions.%I', name);
  return format('partitions.%I', name);
end
$function$;
comment on function public.detach_click_partition(p_month date) is 'Service role only, never scheduled: detaches the clicks of one UTC month more than 12 full months old (none of an open dispute''s source) from link_clicks, leaving partitions.link_clicks_YYYY_MM to export and drop; returns that table''s name.';
revoke execute on function public.detach_click_partition(p_month date) from anon, authenticated, public;

-- The months the existing clicks need, this month and the two after it; then the clicks themselves, before the
-- triggers exist (they are already in the figures and the queue).
do $do$
declare
  m date := least(
    coalesce((select min(created_at) at time zone 'UTC' from private.link_clicks_unpartitioned)::date, current_date),
    (now() at time zone 'UTC')::date);
begin
  m := make_date(extract(year from m)::integer, extract(month from m)::integer, 1);
  while m <= (now() at time zone 'UTC')::date + interval '2 months' loop
    perform private.ensure_click_partition(m);
    m := (m + interval '1 month')::date;
  end loop;
end
$do$;

insert into public.link_clicks (
  id, audience_source_id, campaign_id, viewed_campaign_ids, page_views, unique_views, counted, not_counted_reason,
  visitor_hash, fingerprint, ip, country, city, region, user_agent, referrer, browser, language, timezone, platform,
  screen_width, screen_height, viewport_width, viewport_height, cookies_enabled, do_not_track, hardware_concurrency,
  device_memory, connection, device_info, created_at, view_window_started_at, view_window_count, attributed_campaign_ids)
select
  id, audience_source_id, campaign_id, viewed_campaign_ids, page_views, unique_views, counted, not_counted_reason,
  visitor_hash, fingerprint, ip, country, city, region, user_agent, referrer, browser, language, timezone, platform,
  screen_width, screen_height, viewport_width, viewport_height, cookies_enabled, do_not_track, hardware_concurrency,
  device_memory, connection, device_info, created_at, view_window_started_at, view_window_count, attributed_campaign_ids
from private.link_clicks_unpartitioned;

drop table private.link_clicks_unpartitioned;

-- === Triggers ============================================================================================

create trigger link_clicks_immutable before update on public.link_clicks for each row execute function public.forbid_column_changes('audience_source_id', 'visitor_hash');

create trigger link_clicks_source_exists before insert or update of audience_source_id on public.link_clicks
  for each row execute function private.link_click_source_exists();

create or replace function private.link_click_daily()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  -- An append, not an upsert: no row shared with other clicks is locked (drain_click_queue adds it up).
  insert into private.click_queue (audience_source_id, day, counted, not_counted_reason)
  select a.audience_source_id, private.utc_day(a.created_at), a.counted, a.not_counted_reason from added a;
  return null;
end
$function$;
comment on function private.link_click_daily() is 'Internal trigger (per statement): queues every inserted click for its source''s day and, when it did not count, its reason (drain_click_queue adds the queue to the aggregates). An update that moves a click to another month''s partition does not queue it again.';

create trigger link_clicks_daily after insert on public.link_clicks referencing new table as added
  for each statement execute function private.link_click_daily();

create function private.link_clicks_forget_deleted()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  update public.newsletter_subscriptions s set click_id = null where s.click_id in (select g.id from gone g);
  return null;
end
$function$;
comment on function private.link_clicks_forget_deleted() is 'Internal trigger (per statement): deleted clicks are no longer named by subscriptions (what on delete set null did for the foreign key).';
revoke execute on function private.link_clicks_forget_deleted() from public;

create trigger link_clicks_forget_deleted after delete on public.link_clicks referencing old table as gone
  for each statement execute function private.link_clicks_forget_deleted();

create function private.subscription_click_exists()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if new.click_id is not null then
    -- The lock the foreign key took: the click cannot be deleted until this subscription commits.
    perform 1 from public.link_clicks c where c.id = new.click_id for key share;
    if not found then
      raise exception 'This subscription names a click that does not exist.' using errcode = '23503';
    end if;
  end if;
  return new;
end
$function$;
comment on function private.subscription_click_exists() is 'Internal trigger: the key of a subscription to its click (link_clicks is partitioned, so no foreign key can name its id alone).';
revoke execute on function private.subscription_click_exists() from public;

create trigger newsletter_subscriptions_click_exists before insert or update of click_id on public.newsletter_subscriptions
  for each row execute function private.subscription_click_exists();

-- === Row-level security policies =========================================================================

create policy "Admins can read every click" on public.link_clicks
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Advertisers can read clicks on their campaigns" on public.link_clicks
  for select to authenticated
  using ((exists ( select 1
   from public.campaigns c
  where ((c.id = link_clicks.campaign_id) and (c.advertiser_id = ( select auth.uid() as uid))))));
create policy "Publishers can read clicks on their sources" on public.link_clicks
  for select to authenticated
  using ((exists ( select 1
   from public.audience_sources s
  where ((s.id = link_clicks.audience_source_id) and (s.publisher_id = ( select auth.uid() as uid))))));

-- === Scheduled jobs (pg_cron) ============================================================================

select cron.schedule('create-click-partitions', '41 2 * * *', $job$select public.create_click_partitions()$job$);
