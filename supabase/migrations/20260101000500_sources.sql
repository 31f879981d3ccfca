-- Baseline, sources: the publishers' audience sources, their review, quality and public directory.
--
-- One of the 13 files that replaced the 38 migrations of January 2026 (none had been applied to a hosted
-- database; docs/decisions.md), rendered from the schema they built with the changes listed in
-- supabase/tests/helpers/squash-changes.ts; supabase/tests/schema.test.ts proves everything else equal. The
-- history goes on in new migrations after these; the current state is read in supabase/schemas/.

-- === Functions ===========================================================================================

create function public.admin_set_source_status(p_source_id uuid, p_status text, p_reason text default null::text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  previous text;
  sub record;
  refunded integer := 0;
begin
  perform private.require_admin();
  if p_status is null or p_status not in ('approved', 'live', 'verified', 'pending', 'pending_review', 'under_review', 'rejected', 'banned', 'archived') then
    raise exception 'Unknown source status' using errcode = '22023';
  end if;
  if p_status in ('rejected', 'banned') and coalesce(trim(p_reason), '') = '' then
    raise exception 'Give a reason when rejecting or banning' using errcode = '22023';
  end if;
  select status into previous from public.audience_sources where id = p_source_id for update;
  if not found then
    raise exception 'Source not found' using errcode = 'P0002';
  end if;
  update public.audience_sources set status = p_status, review_note = nullif(trim(p_reason), '') where id = p_source_id;
  perform private.log_moderation_event('audience_source', p_source_id, previous, p_status, p_reason);

  if p_status in ('rejected', 'banned') then
    -- Subscribers still in screening: the hold is refunded and the earning cancelled.
    for sub in
      select distinct t.subscription_id as id from public.wallet_transactions t
      join public.newsletter_subscriptions n on n.id = t.subscription_id
      where n.audience_source_id = p_source_id and n.counted and t.type = 'hold' and t.status = 'pending'
    loop
      perform public.refund_subscription(sub.id, 'Source ' || p_status || ': ' || trim(p_reason));
      refunded := refunded + 1;
    end loop;
    -- Pending subscribers: their reservations go back to the advertisers (they will confirm unpaid).
    for sub in
      select n.id, c.advertiser_id from public.newsletter_subscriptions n join public.campaigns c on c.id = n.campaign_id
      where n.audience_source_id = p_source_id and n.reserved_amount > 0
      order by c.advertiser_id
    loop
      perform private.lock_wallet(sub.advertiser_id);
      perform private.release_reservation(sub.id);
    end loop;
  end if;
  return jsonb_build_object('id', p_source_id, 'status', p_status, 'refunded_subscribers', refunded);
end
$function$;
comment on function public.admin_set_source_status(p_source_id uuid, p_status text, p_reason text) is 'Admins review sources; the reason becomes the publisher-visible review note and is audit-logged. Rejecting or banning refunds subscribers still in screening and releases open reservations.';
revoke execute on function public.admin_set_source_status(p_source_id uuid, p_status text, p_reason text) from anon, public;

create function public.archive_audience_source(p_source_id uuid)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  previous text;
begin
  select status into previous from public.audience_sources
    where id = p_source_id and publisher_id = (select auth.uid()) for update;
  if not found then
    raise exception 'You can only archive your own sources' using errcode = '42501';
  end if;
  if previous = 'banned' then
    raise exception 'A banned source stays banned' using errcode = '22023';
  end if;
  update public.audience_sources set status = 'archived' where id = p_source_id;
  perform private.log_moderation_event('audience_source', p_source_id, previous, 'archived', 'Archived by its publisher');
  return jsonb_build_object('id', p_source_id, 'status', 'archived');
end
$function$;
comment on function public.archive_audience_source(p_source_id uuid) is 'Publishers retire a source: its link stops earning, its history stays (clicks, subscriptions and earnings are evidence).';
revoke execute on function public.archive_audience_source(p_source_id uuid) from anon, public;

create function public.generate_unified_code()
 returns text
 language sql
 set search_path to ''
as $function$
  select translate(encode(extensions.gen_random_bytes(8), 'base64'), '+/=', '')::text
$function$;
comment on function public.generate_unified_code() is 'A short random code for /earn/{code}; lowercased by the table default.';
revoke execute on function public.generate_unified_code() from anon, public;

-- === Tables ==============================================================================================

create table public.audience_sources (
  id uuid default gen_random_uuid() not null,
  publisher_id uuid not null,
  name text not null,
  description text,
  image_url text,
  url text,
  platform text default 'website'::text not null,
  category text,
  status text default 'pending_review'::text not null,
  review_note text,
  unified_code text default lower(public.generate_unified_code()) not null,
  magic_link text generated always as (('magic/'::text || unified_code)) stored,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  approved_at timestamp with time zone,
  quality_counted_clicks integer,
  quality_confirmation_rate numeric(5,1),
  quality_counted_share numeric(5,1),
  quality_refreshed_at timestamp with time zone,
  constraint audience_sources_pkey primary key (id),
  constraint audience_sources_unified_code_key unique (unified_code),
  constraint audience_sources_category_check check ((category = any ((enum_range(null::public.category))::text[]))),
  constraint audience_sources_description_check check ((char_length(description) <= 2000)),
  constraint audience_sources_image_url_check check ((char_length(image_url) <= 2048)),
  constraint audience_sources_name_check check (((char_length(trim(both from name)) >= 2) and (char_length(trim(both from name)) <= 120))),
  constraint audience_sources_platform_check check ((platform = any ((enum_range(null::public.source_platform))::text[]))),
  constraint audience_sources_review_note_check check ((char_length(review_note) <= 1000)),
  constraint audience_sources_status_check check ((status = any ((enum_range(null::public.source_status))::text[]))),
  constraint audience_sources_unified_code_check check ((unified_code ~ '^[a-z0-9][a-z0-9_-]{2,63}$'::text)),
  constraint audience_sources_url_check check ((char_length(url) <= 2048)),
  constraint audience_sources_publisher_id_fkey foreign key (publisher_id) references public.profiles(id) on delete cascade
);
alter table public.audience_sources enable row level security;
create index audience_sources_magic_link_idx on public.audience_sources using btree (magic_link);
create index audience_sources_public_confirmation_idx on public.audience_sources using btree (quality_confirmation_rate desc nulls last, created_at desc, id desc) where (status = any (array['approved'::text, 'verified'::text, 'live'::text]));
create index audience_sources_public_counted_share_idx on public.audience_sources using btree (quality_counted_share desc nulls last, created_at desc, id desc) where (status = any (array['approved'::text, 'verified'::text, 'live'::text]));
create index audience_sources_public_created_idx on public.audience_sources using btree (created_at desc) where (status = any (array['approved'::text, 'verified'::text, 'live'::text]));
create index audience_sources_publisher_idx on public.audience_sources using btree (publisher_id);
create index audience_sources_status_created_idx on public.audience_sources using btree (status, created_at desc);
comment on table public.audience_sources is 'Where a publisher''s audience is. unified_code drives /earn/{code}; status decides visibility and whether clicks count.';
comment on column public.audience_sources.approved_at is 'First approval: from then on, public fields change only through reviewed revisions.';
comment on column public.audience_sources.quality_counted_clicks is 'Counted clicks in the last 30 days (refresh-source-quality); null when there were none.';
comment on column public.audience_sources.quality_confirmation_rate is 'Of the subscriptions started through this source in the last 30 days whose click counted, the % confirmed; null below 20 counted clicks or without such subscriptions.';
comment on column public.audience_sources.quality_counted_share is 'Of this source''s clicks in the last 30 days that were neither bots, link previews nor rate-limited, the % that counted; null below 20 counted clicks.';
revoke insert, update, delete, truncate, references, trigger on table public.audience_sources from anon;
revoke insert, update, truncate, references, trigger on table public.audience_sources from authenticated;
revoke truncate, references, trigger on table public.audience_sources from service_role;
grant insert (publisher_id, name, description, image_url, url, platform, category, status) on public.audience_sources to authenticated;
grant update (name, description, image_url, url, platform, category) on public.audience_sources to authenticated;

-- === Functions ===========================================================================================

create function public.guard_audience_source_columns()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  if tg_op = 'INSERT' then
    if public.is_api_caller() then
      -- Codes are generated, never chosen by the browser: a chosen code could imitate another source.
      new.unified_code := lower(public.generate_unified_code());
      new.review_note := null;
    end if;
    return new;
  end if;
  if new.publisher_id is distinct from old.publisher_id then
    raise exception 'A source cannot change owner' using errcode = '42501';
  end if;
  if new.unified_code is distinct from old.unified_code then
    raise exception 'A unified code cannot be changed' using errcode = '42501';
  end if;
  if public.is_api_caller() and (new.status is distinct from old.status or new.review_note is distinct from old.review_note) then
    raise exception 'Only an admin can change a source''s status' using errcode = '42501';
  end if;
  return new;
end
$function$;
comment on function public.guard_audience_source_columns() is 'Keeps publisher_id and unified_code immutable and status/review_note admin-only.';
revoke execute on function public.guard_audience_source_columns() from anon, authenticated, public;

create function private.guard_source_quality()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
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
$function$;
comment on function private.guard_source_quality() is 'Internal trigger: only the refresh job writes a source''s quality figures.';
revoke execute on function private.guard_source_quality() from public;

create function public.is_source_public(status text)
 returns boolean
 language sql
 immutable parallel safe
 set search_path to ''
as $function$
  select coalesce(status in ('approved', 'verified', 'live'), false)
$function$;
comment on function public.is_source_public(status text) is 'The one validity rule for audience sources: the statuses the directory shows are exactly the ones a magic link accepts.';
revoke execute on function public.is_source_public(status text) from public;

create function public.refresh_source_quality(p_today date default null::date)
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
comment on function public.refresh_source_quality(p_today date) is 'Scheduled every 10 minutes (refresh-source-quality), service role only: recomputes each source''s 30-day counted clicks, confirmation rate (among subscriptions whose click counted) and counted share (of clicks that were neither bots nor refused); returns how many sources changed.';
revoke execute on function public.refresh_source_quality(p_today date) from anon, authenticated, public;

create function private.stamp_first_approval()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  if new.approved_at is null and (
       (tg_table_name = 'audience_sources' and new.status in ('approved', 'verified', 'live'))
    or (tg_table_name = 'campaigns' and new.status in ('active', 'paused', 'completed'))) then
    new.approved_at := now();
  end if;
  return new;
end
$function$;
comment on function private.stamp_first_approval() is 'Remembers when a source or campaign was first approved.';
revoke execute on function private.stamp_first_approval() from public;

-- === Triggers ============================================================================================

create trigger audience_sources_guard_columns before insert or update on public.audience_sources for each row execute function public.guard_audience_source_columns();

create trigger audience_sources_guard_quality before insert or update on public.audience_sources for each row execute function private.guard_source_quality();

create trigger audience_sources_set_updated_at before update on public.audience_sources for each row execute function public.set_updated_at();

create trigger audience_sources_stamp_approval before insert or update of status on public.audience_sources for each row execute function private.stamp_first_approval();

-- === Row-level security policies =========================================================================

create policy "Admins can read every source" on public.audience_sources
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Publishers can add sources for review" on public.audience_sources
  for insert to authenticated
  with check (((( select auth.uid() as uid) = publisher_id) and (status = 'pending_review'::text) and (( select public.current_user_type() as current_user_type) = 'publisher'::text)));
create policy "Publishers can delete their own unreviewed sources" on public.audience_sources
  for delete to authenticated
  using (((( select auth.uid() as uid) = publisher_id) and (status = any (array['pending'::text, 'pending_review'::text, 'rejected'::text]))));
create policy "Publishers can edit their own sources" on public.audience_sources
  for update to authenticated
  using ((( select auth.uid() as uid) = publisher_id))
  with check ((( select auth.uid() as uid) = publisher_id));
create policy "Publishers can read their own sources" on public.audience_sources
  for select to authenticated
  using ((( select auth.uid() as uid) = publisher_id));
create policy "Signed-in users can read public sources" on public.audience_sources
  for select to authenticated
  using ((status = any (array['approved'::text, 'verified'::text, 'live'::text])));
create policy "Visitors can read public sources" on public.audience_sources
  for select to anon
  using ((status = any (array['approved'::text, 'verified'::text, 'live'::text])));

-- === Scheduled jobs (pg_cron) ============================================================================

select cron.schedule('refresh-source-quality', '*/10 * * * *', $job$select public.refresh_source_quality()$job$);
