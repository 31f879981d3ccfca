-- Clicks that cannot be gamed:
-- * the client IP is the one value the API gateway vouches for (private.client_ip), never a header a browser
--   can write itself (a random X-Forwarded-For per request used to make every click count);
-- * bots are recognised with isbot's pattern (translated by scripts/isbot-sql-pattern.mjs) on top of the
--   HTTP-library list we had;
-- * a campaign view counts once per click and campaign, and page_views is bounded per click per minute, so
--   calling record_campaign_page_view in a loop adds nothing;
-- * raw click data (IP, browser string, fingerprint, device info, visitor hash) is for admins only: the API
--   roles get the columns the dashboards need, and admins read the rest through admin functions.

alter table private.settings
  add column if not exists client_ip_header text not null default 'x-real-ip'
    check (client_ip_header ~ '^[a-z0-9-]{1,64}$');
comment on column private.settings.client_ip_header is
  'The request header that carries the client IP as the platform vouches for it. Locally the embedded gateway writes x-real-ip itself (socket address, or a trusted proxy''s header); on hosted Supabase set it to the platform''s header (see README "Client IP").';

create function private.client_ip()
returns text
language sql stable
security definer
set search_path = ''
as $$
  select nullif(trim(split_part(
    coalesce(nullif(current_setting('request.headers', true), '')::jsonb ->> (select client_ip_header from private.settings), ''),
    ',', 1)), '')
$$;
comment on function private.client_ip() is
  'The client IP of the current API request, from the one header the platform sets (never X-Forwarded-For as a client wrote it).';
revoke execute on function private.client_ip() from public, anon, authenticated, service_role;

create function private.visitor_hash(p_ip text, p_user_agent text, p_day date)
returns text
language sql stable
security definer
set search_path = ''
as $$
  select encode(sha256(convert_to(
    coalesce(p_ip, '') || '|' || coalesce(p_user_agent, '') || '|' ||
    encode(sha256((select visitor_salt_secret from private.settings) || convert_to(p_day::text, 'UTF8')), 'hex'),
    'UTF8')), 'hex')
$$;
comment on function private.visitor_hash(text, text, date) is
  'PRODUCT: visitor hash = sha256 of IP + user agent + the daily salt of the given day (clicks and subscriptions use the same).';
revoke execute on function private.visitor_hash(text, text, date) from public, anon, authenticated, service_role;

create or replace function public.is_bot_user_agent(p_user_agent text)
returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select p_user_agent is null or trim(p_user_agent) = ''
    or p_user_agent ~* (
      'bot|crawl|spider|slurp|facebookexternalhit|embedly|preview|curl/|wget|python-requests|python-urllib|aiohttp|'
      || 'httpclient|go-http-client|java/|libwww|scrapy|headless|phantomjs|axios/|node-fetch|undici|okhttp|postman')
    -- isbot 5.2.3's pattern, translated for PostgreSQL by scripts/isbot-sql-pattern.mjs.
    or p_user_agent ~* ' daum[ /]| deusu\/|(?:^|[^g])news(?!sapphire)|(?<! channel\/|google\/)google(?!(?:wv|app|\/google| pixel))|(?<! cu)bots?(?:\y|_)|(?<!cam)scan|(?<!lib)http|24x7|;\s\w+;$|@[a-z][\w\-]+\.|\(\)|\.com\y|\y\w+\/1\.0;|\ybw\/|\ydlc\y|\yort\/|\yperl\y|\ytime\/|\||^[<\(;]|^[\w \.\-\(?:\):%]+(?:\/v?\d+(?:\.\d+)?(?:\.\d{1,10})*?)?(?:,|$)|^[\w\-]+\/[\w]+$|^[^ ]{50,}$|^\d+\y|^\w*search\y|^\w+\/[\w\(\)]*$|^\w+\/\d\.\d\s\([\w@]+\)$|^active|^ad muncher|^amaya|^apache\/|^avsdevicesdk\/|^azure|^biglotron|^blackbox exporter|^bot|^clamav[ /]|^claude-code\/|^client\/|^cobweb\/|^custom|^ddg[_-]android|^discourse|^dispatch\/\d|^downcast\/|^duckduckgo|^email|^exodusmovement|^facebook|^getright\/|^gozilla\/|^hobbit|^hotzonu|^hwcdn\/|^igetter\/|^jeode\/|^jetty\/|^jigsaw|^microsoft bits|^movabletype|^mozilla\/\d\.\d\s[\w\.-]+$|^mozilla\/\d\.\d\s\((?:compatible;)?(?:\s?[\w\d\-.]+[\s/]\d+\.\d+)?\)$|^navermailapp|^netsurf|^offline|^openai\/|^owler|^php|^postman|^ps_daily\/|^python|^rank|^read|^reed|^remove\.bg\/|^rest|^rss|^snapchat|^sora |^space bison|^stape\/|^svn|^swcd |^taringa|^thumbor\/|^track|^w3c|^webbandit\/|^webcopier|^wget|^whatsapp|^wordpress|^xenu link sleuth|^yahoo|^yandex|^zdm\/\d|^zoom marketplace\/|abuse|advisor|agent\y|analyzer|archive|ask jeeves\/teoma|attracta|audit|bluecoat drtr|browsex|burpcollaborator|capture|catch|check\y|checker|chrome-lighthouse|chromeframe|classifier|cloudflare|collapsify\y|convertify|cookiehubverify\/|crawl|cursor\/|cypress\/|dareboost|datanyze|dejaclick|detect|discovery|dmbrowser|download|exaleadcloudview|feed|firephp|foregenix|functionize|grab|hardenize\y|headless|hotjar|httrack|hubspot marketing grader|ibisbrowser|infrawatch|insight|inspect|iplabel|java(?!;)|library|linkcheck|linktiger|mail\.ru\/|manus-user\/|marketgoo\/|measure|monitor\y|neustar wpm|node\y|nutch|offbyone|openvas|optimize|pageburst|pagespeed|parser|phantomjs|pingdom|playwright|powermarks|preview|productfinder|prospectingstudio|proxy|ptst[ /]\d|radar|readable\/|retriever|rexx;|rigor|rss\y|scrape|securityheaders|selenium|server|silktide|sindup\/|sogou|sparkler\/|speedcurve|spider|splash|statuscake|supercleaner|synapse|synthetic|testlocally|tools|torrent|transcoder|url|validator|virtuoso|wappalyzer|watchtowr|webglance|webkit2png|whatcms\/|xtate\/'
$$;
comment on function public.is_bot_user_agent(text) is
  'The bot filter for clicks: empty user agents, isbot''s pattern, and known HTTP libraries.';

create or replace function public.track_audience_source_click(unified_code text, device_info jsonb default '{}')
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
$$;

-- Views: once per (click, campaign) for the counters; page_views at most 10 a minute per click.
alter table public.link_clicks
  add column view_window_started_at timestamptz,
  add column view_window_count integer not null default 0 check (view_window_count >= 0);
comment on column public.link_clicks.view_window_count is
  'Page views recorded in the current one-minute window (view_window_started_at): at most 10 count.';

create or replace function public.record_campaign_page_view(p_click_id uuid, p_campaign_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
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
    campaign_id = coalesce(campaign_id, p_campaign_id),
    page_views = page_views + 1,
    unique_views = unique_views + case when first_view then 1 else 0 end,
    viewed_campaign_ids = case when first_view then viewed_campaign_ids || p_campaign_id else viewed_campaign_ids end,
    view_window_started_at = case when in_window then view_window_started_at else now() end,
    view_window_count = case when in_window then view_window_count + 1 else 1 end
  where id = p_click_id
  returning * into c;
  -- A (click, campaign) pair is one view and one click for the counters, however often the page is opened.
  if c.counted and first_view then
    perform public.bump_campaign_source_stats(p_campaign_id, c.audience_source_id, 1, 1, 0);
  end if;
  return jsonb_build_object('recorded', true, 'page_views', c.page_views, 'unique_views', c.unique_views);
end
$$;
comment on function public.record_campaign_page_view(uuid, uuid) is
  'SPEC §7 link_clicks update without table rights: page_views (at most 10 a minute per click), unique_views, campaign set if empty; the (campaign, source) counters count a view and a click once per click and campaign.';

-- Who reads which click columns: dashboards get counts and reasons, never who the visitor was.
revoke select on public.link_clicks from anon, authenticated;
grant select (id, session_id, audience_source_id, campaign_id, viewed_campaign_ids, page_views, unique_views,
  counted, not_counted_reason, created_at) on public.link_clicks to authenticated;
