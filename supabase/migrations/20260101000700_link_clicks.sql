-- Clicks on /earn/{code}: recorded once, server-side, in one round trip by track_audience_source_click,
-- with device info, the IP from the request headers and a daily-salted visitor hash. Every click says
-- whether it counts and, if not, why (source_inactive, bot_user_agent, rate_limited: 60 clicks from one IP
-- within 10 minutes, duplicate_visitor: same visitor hash on the same source within an hour).
-- A click's id is its session id: the campaign pages record views on it (record_campaign_page_view).

create table public.link_clicks (
  id uuid primary key default gen_random_uuid(),
  session_id uuid generated always as (id) stored,
  audience_source_id uuid not null references public.audience_sources (id) on delete cascade,
  campaign_id uuid references public.campaigns (id) on delete set null,
  viewed_campaign_ids uuid[] not null default '{}',
  page_views integer not null default 0,
  unique_views integer not null default 0,
  counted boolean not null,
  not_counted_reason text check (not_counted_reason in (
    'bot_user_agent', 'head_request', 'duplicate_visitor', 'source_inactive', 'rate_limited')),
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
  device_info jsonb not null default '{}',
  created_at timestamptz not null default now(),
  constraint link_clicks_reason_when_not_counted check (counted = (not_counted_reason is null))
);
comment on table public.link_clicks is
  'One row per magic-link click (the click id is the session id). Raw IPs are kept for fraud review only (30 days).';
create index link_clicks_source_visitor_idx on public.link_clicks (audience_source_id, visitor_hash, created_at desc);
create index link_clicks_source_created_idx on public.link_clicks (audience_source_id, created_at desc);
create index link_clicks_campaign_idx on public.link_clicks (campaign_id) where campaign_id is not null;
create index link_clicks_ip_created_idx on public.link_clicks (ip, created_at desc) where ip is not null;
create trigger link_clicks_immutable before update on public.link_clicks
  for each row execute function public.forbid_column_changes('audience_source_id', 'visitor_hash');

alter table public.link_clicks enable row level security;

create policy "Publishers can read clicks on their sources"
  on public.link_clicks for select to authenticated
  using (exists (select 1 from public.audience_sources s where s.id = audience_source_id and s.publisher_id = (select auth.uid())));
create policy "Advertisers can read clicks on their campaigns"
  on public.link_clicks for select to authenticated
  using (exists (select 1 from public.campaigns c where c.id = campaign_id and c.advertiser_id = (select auth.uid())));
create policy "Admins can read every click"
  on public.link_clicks for select to authenticated
  using ((select public.is_admin()));

create function public.is_bot_user_agent(p_user_agent text)
returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select p_user_agent is null or trim(p_user_agent) = '' or p_user_agent ~* (
    'bot|crawl|spider|slurp|facebookexternalhit|embedly|preview|curl/|wget|python-requests|python-urllib|aiohttp|'
    || 'httpclient|go-http-client|java/|libwww|scrapy|headless|phantomjs|axios/|node-fetch|undici|okhttp|postman'
  )
$$;
comment on function public.is_bot_user_agent(text) is 'The bot filter for clicks: empty user agents and known crawlers, previewers and HTTP libraries.';
revoke execute on function public.is_bot_user_agent(text) from public;
grant execute on function public.is_bot_user_agent(text) to anon, authenticated, service_role;

create function public.track_audience_source_click(unified_code text, device_info jsonb default '{}')
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  code text := trim(coalesce(track_audience_source_click.unified_code, ''));
  info jsonb := case when jsonb_typeof(device_info) = 'object' then device_info else '{}'::jsonb end;
  headers jsonb := coalesce(nullif(current_setting('request.headers', true), '')::jsonb, '{}'::jsonb);
  src record;
  client_ip text;
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

  client_ip := nullif(trim(split_part(coalesce(headers ->> 'x-forwarded-for', headers ->> 'x-real-ip', ''), ',', 1)), '');
  agent := left(coalesce(nullif(headers ->> 'user-agent', ''), info ->> 'userAgent'), 1000);
  hash := encode(sha256(convert_to(
    coalesce(client_ip, '') || '|' || coalesce(agent, '') || '|' ||
    encode(sha256((select visitor_salt_secret from private.settings) || convert_to(current_date::text, 'UTF8')), 'hex'),
    'UTF8')), 'hex');
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
$$;
comment on function public.track_audience_source_click(text, jsonb) is
  'SPEC §7: resolves a magic-link code (unified code, magic/{code}, id), records the click with its counted flag and reason, returns click_id and source_id.';
revoke execute on function public.track_audience_source_click(text, jsonb) from public, anon, authenticated;
grant execute on function public.track_audience_source_click(text, jsonb) to anon, authenticated, service_role;

create function public.record_campaign_page_view(p_click_id uuid, p_campaign_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  c public.link_clicks;
  first_view boolean;
begin
  if not exists (select 1 from public.campaigns where id = p_campaign_id and status = 'active') then
    return jsonb_build_object('recorded', false);
  end if;
  select * into c from public.link_clicks where id = p_click_id for update;
  if not found then
    return jsonb_build_object('recorded', false);
  end if;
  first_view := not (p_campaign_id = any (c.viewed_campaign_ids));
  update public.link_clicks set
    campaign_id = coalesce(campaign_id, p_campaign_id),
    page_views = page_views + 1,
    unique_views = unique_views + case when first_view then 1 else 0 end,
    viewed_campaign_ids = case when first_view then viewed_campaign_ids || p_campaign_id else viewed_campaign_ids end
  where id = p_click_id
  returning * into c;
  if c.counted then
    perform public.bump_campaign_source_stats(p_campaign_id, c.audience_source_id, 1, case when first_view then 1 else 0 end, 0);
  end if;
  return jsonb_build_object('recorded', true, 'page_views', c.page_views, 'unique_views', c.unique_views);
end
$$;
comment on function public.record_campaign_page_view(uuid, uuid) is
  'SPEC §7 link_clicks update without table rights: one click row only — campaign set if empty, page and unique views, and the (campaign, source) counters when the click counts.';
revoke execute on function public.record_campaign_page_view(uuid, uuid) from public, anon, authenticated;
grant execute on function public.record_campaign_page_view(uuid, uuid) to anon, authenticated, service_role;

create function public.purge_click_ips(p_older_than interval default interval '30 days')
returns integer
language sql
security definer
set search_path = ''
as $$
  with purged as (
    update public.link_clicks set ip = null
    where ip is not null and created_at < now() - p_older_than
    returning 1
  )
  select count(*)::integer from purged
$$;
comment on function public.purge_click_ips(interval) is
  'Scheduled, service role only: raw IPs are kept only as long as fraud review needs them (30 days); the visitor hash stays.';
revoke execute on function public.purge_click_ips(interval) from public, anon, authenticated;
grant execute on function public.purge_click_ips(interval) to service_role;
