-- Baseline, clicks: magic-link clicks, their attribution and trust checks.
--
-- One of the 13 files that replaced the 38 migrations of January 2026 (none had been applied to a hosted
-- database; docs/decisions.md), rendered from the schema they built with the changes listed in
-- supabase/tests/helpers/squash-changes.ts; supabase/tests/schema.test.ts proves everything else equal. The
-- history goes on in new migrations after these; the current state is read in supabase/schemas/.

-- === Tables ==============================================================================================

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
  constraint link_clicks_pkey primary key (id),
  constraint link_clicks_not_counted_reason_check check ((not_counted_reason = any ((enum_range(null::public.not_counted_reason))::text[]))),
  constraint link_clicks_reason_when_not_counted check ((counted = (not_counted_reason is null))),
  constraint link_clicks_view_window_count_check check ((view_window_count >= 0)),
  constraint link_clicks_audience_source_id_fkey foreign key (audience_source_id) references public.audience_sources(id) on delete restrict,
  constraint link_clicks_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete restrict
);
alter table public.link_clicks enable row level security;
create index link_clicks_campaign_idx on public.link_clicks using btree (campaign_id) where (campaign_id is not null);
create index link_clicks_ip_age_idx on public.link_clicks using btree (created_at) where (ip is not null);
create index link_clicks_ip_created_idx on public.link_clicks using btree (ip, created_at desc) where (ip is not null);
create index link_clicks_source_created_idx on public.link_clicks using btree (audience_source_id, created_at desc);
create index link_clicks_source_visitor_idx on public.link_clicks using btree (audience_source_id, visitor_hash, created_at desc);
comment on table public.link_clicks is 'One row per magic-link click (the click id is the session id). Raw IPs are kept for fraud review only (30 days).';
comment on column public.link_clicks.view_window_count is 'Page views recorded in the current one-minute window (view_window_started_at): at most 10 count.';
comment on column public.link_clicks.attributed_campaign_ids is 'Campaigns this click belongs to (opened or subscribed to by its visitor); each pair counts one click, once.';
revoke select, insert, update, delete, truncate, references, trigger on table public.link_clicks from anon, authenticated;
revoke truncate, references, trigger on table public.link_clicks from service_role;
grant select (id, session_id, audience_source_id, campaign_id, viewed_campaign_ids, page_views, unique_views, counted, not_counted_reason, created_at, attributed_campaign_ids) on public.link_clicks to authenticated;

-- === Functions ===========================================================================================

create function public.attach_click_fingerprint(p_click_id uuid, p_fingerprint text)
 returns boolean
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  headers jsonb := coalesce(nullif(current_setting('request.headers', true), '')::jsonb, '{}'::jsonb);
  agent text := left(nullif(headers ->> 'user-agent', ''), 1000);
  client_ip text := private.client_ip();
  v_fingerprint text := left(trim(coalesce(p_fingerprint, '')), 200);
begin
  if p_click_id is null then
    raise exception using errcode = '22023', message = 'Which click is this fingerprint for? The click id is missing.';
  end if;
  -- SPEC §8: a fingerprint that could not be computed is recorded as 'unknown'.
  if v_fingerprint = '' then
    v_fingerprint := 'unknown';
  end if;
  update public.link_clicks c
     set fingerprint = v_fingerprint,
         device_info = jsonb_set(coalesce(c.device_info, '{}'::jsonb), '{fingerprint}', to_jsonb(v_fingerprint))
   where c.id = p_click_id
     and c.fingerprint is null
     and c.created_at > now() - interval '10 minutes'
     -- The click's hash was made with the day it was recorded; ten minutes may cross midnight.
     and c.visitor_hash in (private.visitor_hash(client_ip, agent, current_date),
                            private.visitor_hash(client_ip, agent, current_date - 1));
  return found;
end
$function$;
comment on function public.attach_click_fingerprint(p_click_id uuid, p_fingerprint text) is 'Fills in the fingerprint of a magic-link click recorded before it was computed: same visitor, once, within 10 minutes. True when it was recorded.';
revoke execute on function public.attach_click_fingerprint(p_click_id uuid, p_fingerprint text) from public;

create function private.attribute_click(p_click_id uuid, p_campaign_id uuid, p_first_view boolean)
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
  if c.counted then
    if first_pair or p_first_view then
      perform private.bump_campaign_source_stats(p_campaign_id, c.audience_source_id,
        case when p_first_view then 1 else 0 end, case when first_pair then 1 else 0 end, 0);
    end if;
  elsif first_pair then
    perform private.bump_not_counted('click', c.not_counted_reason, c.audience_source_id, p_campaign_id,
      private.utc_day(c.created_at), 1);
  end if;
end
$function$;
comment on function private.attribute_click(p_click_id uuid, p_campaign_id uuid, p_first_view boolean) is 'Internal: PRODUCT "click" — a click belongs to every campaign its visitor opens or subscribes to, once per pair; a first view of the campaign on this click adds a view.';
revoke execute on function private.attribute_click(p_click_id uuid, p_campaign_id uuid, p_first_view boolean) from public;

create function public.purge_click_ips(p_older_than interval default '30 days'::interval)
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
comment on function public.purge_click_ips(p_older_than interval) is 'Scheduled daily (purge-click-ips), service role only: raw IPs of clicks and subscriptions are kept only as long as fraud review needs them (30 days); the visitor hash stays. Returns how many rows it cleared.';
revoke execute on function public.purge_click_ips(p_older_than interval) from anon, authenticated, public;

create function public.record_campaign_page_view(p_click_id uuid, p_campaign_id uuid)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  c public.link_clicks;
  first_view boolean;
  in_window boolean;
begin
  if not exists (select 1 from public.campaigns where id = p_campaign_id and status = 'active') then
    return jsonb_build_object('recorded', false);
  end if;
  select * into c from public.link_clicks where id = p_click_id for update;
  if not found then
    return jsonb_build_object('recorded', false);
  end if;
  first_view := not (p_campaign_id = any (c.viewed_campaign_ids));
  in_window := c.view_window_started_at is not null and c.view_window_started_at > now() - interval '1 minute';
  if not first_view and in_window and c.view_window_count >= 10 then
    return jsonb_build_object('recorded', false, 'page_views', c.page_views, 'unique_views', c.unique_views);
  end if;
  update public.link_clicks set
    page_views = page_views + 1,
    unique_views = unique_views + case when first_view then 1 else 0 end,
    viewed_campaign_ids = case when first_view then viewed_campaign_ids || p_campaign_id else viewed_campaign_ids end,
    view_window_started_at = case when in_window then view_window_started_at else now() end,
    view_window_count = case when in_window then view_window_count + 1 else 1 end
  where id = p_click_id
  returning * into c;
  perform private.attribute_click(p_click_id, p_campaign_id, first_view);
  return jsonb_build_object('recorded', true, 'page_views', c.page_views, 'unique_views', c.unique_views);
end
$function$;
comment on function public.record_campaign_page_view(p_click_id uuid, p_campaign_id uuid) is 'SPEC §7 link_clicks update without table rights, for every page or card a visitor opens (campaign link page, newsletter page, a card picked in the list): page_views (at most 10 a minute per click), unique_views; the (campaign, source) counters count a view once per click and campaign and the click once per pair.';
revoke execute on function public.record_campaign_page_view(p_click_id uuid, p_campaign_id uuid) from public;

create function public.track_audience_source_click(unified_code text, device_info jsonb default '{}'::jsonb)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  code text := trim(coalesce(track_audience_source_click.unified_code, ''));
  info jsonb := case when jsonb_typeof(device_info) = 'object' then device_info else '{}'::jsonb end;
  headers jsonb := coalesce(nullif(current_setting('request.headers', true), '')::jsonb, '{}'::jsonb);
  src record;
  client_ip text := private.client_ip();
  agent text;
  hash text;
  reason text;
  click_id uuid;
begin
  select s.id, s.name, s.unified_code, s.status into src
  from public.audience_sources s where s.unified_code = lower(code);
  if not found then
    select s.id, s.name, s.unified_code, s.status into src
    from public.audience_sources s where s.magic_link in ('magic/' || lower(code), lower(code));
  end if;
  if not found and code ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    select s.id, s.name, s.unified_code, s.status into src from public.audience_sources s where s.id = code::uuid;
  end if;
  if not found then
    return jsonb_build_object('click_id', null, 'source_id', null, 'source_name', null, 'unified_code', null,
      'status', 'not_found', 'source_status', null, 'counted', false, 'not_counted_reason', null);
  end if;

  -- The browser string comes from the request itself; the device info's copy is only a fallback.
  agent := left(coalesce(nullif(headers ->> 'user-agent', ''), info ->> 'userAgent'), 1000);
  hash := private.visitor_hash(client_ip, agent, current_date);
  reason := case
    when not public.is_source_public(src.status) then 'source_inactive'
    when public.is_bot_user_agent(agent) then 'bot_user_agent'
    -- One address clicking this much is a script, whatever user agents it sends.
    when client_ip is not null and (select count(*) from (
           select 1 from public.link_clicks c where c.ip = client_ip and c.created_at > now() - interval '10 minutes' limit 60
         ) recent) >= 60 then 'rate_limited'
    when exists (select 1 from public.link_clicks c
                 where c.audience_source_id = src.id and c.visitor_hash = hash
                   and c.created_at > now() - interval '1 hour') then 'duplicate_visitor'
  end;

  insert into public.link_clicks (
    audience_source_id, counted, not_counted_reason, visitor_hash, fingerprint, ip, country, city, region,
    user_agent, referrer, browser, language, timezone, platform, screen_width, screen_height,
    viewport_width, viewport_height, cookies_enabled, do_not_track, hardware_concurrency, device_memory,
    connection, device_info
  ) values (
    src.id, reason is null, reason, hash, left(info ->> 'fingerprint', 200), client_ip,
    left(info ->> 'country', 100), left(info ->> 'city', 100), left(info ->> 'region', 100),
    agent, left(coalesce(headers ->> 'referer', info ->> 'referrer'), 2048), left(info ->> 'browser', 50),
    left(info ->> 'language', 50), left(info ->> 'timezone', 100), left(info ->> 'platform', 100),
    case when jsonb_typeof(info -> 'screenWidth') = 'number' then least((info ->> 'screenWidth')::numeric, 100000)::integer end,
    case when jsonb_typeof(info -> 'screenHeight') = 'number' then least((info ->> 'screenHeight')::numeric, 100000)::integer end,
    case when jsonb_typeof(info #> '{viewport,width}') = 'number' then least((info #>> '{viewport,width}')::numeric, 100000)::integer end,
    case when jsonb_typeof(info #> '{viewport,height}') = 'number' then least((info #>> '{viewport,height}')::numeric, 100000)::integer end,
    case when jsonb_typeof(info -> 'cookiesEnabled') = 'boolean' then (info ->> 'cookiesEnabled')::boolean end,
    left(info ->> 'doNotTrack', 20),
    case when jsonb_typeof(info -> 'hardwareConcurrency') = 'number' then least((info ->> 'hardwareConcurrency')::numeric, 10000)::integer end,
    case when jsonb_typeof(info -> 'deviceMemory') = 'number' then least((info ->> 'deviceMemory')::numeric, 100000) end,
    case when jsonb_typeof(info -> 'connection') = 'object' then info -> 'connection' end,
    case when length(info::text) <= 8192 then info else '{}'::jsonb end
  )
  returning id into click_id;

  return jsonb_build_object(
    'click_id', click_id, 'source_id', src.id, 'source_name', src.name, 'unified_code', src.unified_code,
    'status', case when public.is_source_public(src.status) then 'valid' else 'inactive' end,
    'source_status', src.status, 'counted', reason is null, 'not_counted_reason', reason);
end
$function$;
comment on function public.track_audience_source_click(unified_code text, device_info jsonb) is 'SPEC §7: resolves a magic-link code (unified code, magic/{code}, id), records the click with its counted flag and reason, returns click_id and source_id.';
revoke execute on function public.track_audience_source_click(unified_code text, device_info jsonb) from public;

-- === Triggers ============================================================================================

create trigger link_clicks_immutable before update on public.link_clicks for each row execute function public.forbid_column_changes('audience_source_id', 'visitor_hash');

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

select cron.schedule('purge-click-ips', '17 3 * * *', $job$select public.purge_click_ips()$job$);
