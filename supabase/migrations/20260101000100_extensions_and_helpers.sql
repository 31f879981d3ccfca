-- Baseline, extensions and helpers: extensions, the private schema and its settings, rate limits, the API roles' timeouts, and helpers every domain uses (sessions, second factor, client address, email folding).
--
-- One of the 13 files that replaced the 38 migrations of January 2026 (none had been applied to a hosted
-- database; docs/decisions.md), rendered from the schema they built with the changes listed in
-- supabase/tests/helpers/squash-changes.ts; supabase/tests/schema.test.ts proves everything else equal. The
-- history goes on in new migrations after these; the current state is read in supabase/schemas/.

-- === Extensions, schemas and roles =======================================================================

create extension if not exists citext with schema extensions;
create extension if not exists pg_trgm with schema extensions;
create extension if not exists pgcrypto with schema extensions;
create extension if not exists pg_cron with schema pg_catalog;
create extension if not exists pg_net with schema extensions;

create schema if not exists private;
revoke all on schema private from public;
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';

-- === Tables ==============================================================================================

create table private.rate_limits (
  key text not null,
  window_start timestamp with time zone default now() not null,
  hits integer default 0 not null,
  constraint rate_limits_pkey primary key (key)
);
create index rate_limits_window_idx on private.rate_limits using btree (window_start);
comment on table private.rate_limits is 'Fixed-window counters, one row per key (what is limited and for whom). Refused attempts roll back with their statement, so only allowed ones count.';

create table private.settings (
  id boolean default true not null,
  visitor_salt_secret bytea default extensions.gen_random_bytes(32) not null,
  client_ip_header text default 'x-real-ip'::text not null,
  allow_loopback_webhooks boolean default false not null,
  constraint settings_pkey primary key (id),
  constraint settings_client_ip_header_check check ((client_ip_header ~ '^[a-z0-9-]{1,64}$'::text)),
  constraint settings_id_check check (id)
);
comment on table private.settings is 'Server-side secrets the API never exposes; one row. The visitor-hash salt is derived from it per day.';
comment on column private.settings.client_ip_header is 'The request header that carries the client IP as the platform vouches for it. Locally the embedded gateway writes x-real-ip itself (socket address, or a trusted proxy''s header); on hosted Supabase set it to the platform''s header (see README "Client IP").';
comment on column private.settings.allow_loopback_webhooks is 'Local development only (supabase/local sets it at start): webhook endpoints may also be http://127.0.0.1.';

-- === Functions ===========================================================================================

create function public.canonical_email(p_email text)
 returns text
 language sql
 immutable parallel safe
 set search_path to ''
as $function$
  select case
    when d in ('gmail.com', 'googlemail.com') then replace(l, '.', '') || '@gmail.com'
    when d = '' then l
    else l || '@' || d
  end
  from (
    select split_part(split_part(e, '@', 1), '+', 1) as l, split_part(e, '@', 2) as d
    from (select lower(trim(coalesce(p_email, ''))) as e) a
  ) parts
$function$;
comment on function public.canonical_email(p_email text) is 'One inbox, one address: lower case, +tag removed, and for Gmail dots removed and googlemail.com folded into gmail.com.';
revoke execute on function public.canonical_email(p_email text) from public;

create function private.client_ip()
 returns text
 language sql
 stable security definer
 set search_path to ''
as $function$
  select nullif(trim(split_part(
    coalesce(nullif(current_setting('request.headers', true), '')::jsonb ->> (select client_ip_header from private.settings), ''),
    ',', 1)), '')
$function$;
comment on function private.client_ip() is 'The client IP of the current API request, from the one header the platform sets (never X-Forwarded-For as a client wrote it).';
revoke execute on function private.client_ip() from public;

create function private.email_search_pattern(p_search text)
 returns text
 language sql
 immutable
 set search_path to ''
as $function$
  select case when nullif(trim(coalesce(p_search, '')), '') is null then null
    else '%' || replace(replace(replace(lower(trim(p_search)), '\', '\\'), '%', '\%'), '_', '\_') || '%' end
$function$;
comment on function private.email_search_pattern(p_search text) is 'Internal: an ILIKE pattern that finds the typed text anywhere in an address.';
revoke execute on function private.email_search_pattern(p_search text) from public;

create function public.fold_email(p_email text)
 returns text
 language sql
 immutable parallel safe
 set search_path to ''
as $function$
  select lower(regexp_replace(p_email, '\+[^@]*@', '@'))
$function$;
comment on function public.fold_email(p_email text) is 'Folds local+tag@domain to local@domain so one inbox counts once per campaign (duplicate_email rule).';
revoke execute on function public.fold_email(p_email text) from public;

create function public.forbid_column_changes()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
declare
  col text;
begin
  foreach col in array tg_argv loop
    if (to_jsonb(new) -> col) is distinct from (to_jsonb(old) -> col) then
      raise exception '% cannot be changed', col using errcode = '42501';
    end if;
  end loop;
  return new;
end
$function$;
comment on function public.forbid_column_changes() is 'Trigger: refuses any update that changes one of the columns named in the trigger arguments.';
revoke execute on function public.forbid_column_changes() from anon, authenticated, public;

create function private.has_verified_factor(p_user_id uuid)
 returns boolean
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  -- plpgsql: auth.mfa_factors is created by the auth server (hosted GoTrue, or supabase/local/auth), and the
  -- body is only resolved when called. status is an enum on hosted Supabase and text locally: compare as text.
  return exists (select 1 from auth.mfa_factors f where f.user_id = p_user_id and f.status::text = 'verified');
end
$function$;
comment on function private.has_verified_factor(p_user_id uuid) is 'Whether the user has finished setting up a TOTP factor.';
revoke execute on function private.has_verified_factor(p_user_id uuid) from public;

create function private.hit_rate_limit(p_key text, p_limit integer, p_window interval)
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  r private.rate_limits;
begin
  insert into private.rate_limits as l (key, window_start, hits) values (p_key, now(), 1)
  on conflict (key) do update set
    window_start = case when l.window_start + p_window <= now() then now() else l.window_start end,
    hits = case when l.window_start + p_window <= now() then 1 else l.hits + 1 end
  returning * into r;
  if r.hits <= p_limit then
    return 0;
  end if;
  return greatest(1, ceil(extract(epoch from r.window_start + p_window - now())))::integer;
end
$function$;
comment on function private.hit_rate_limit(p_key text, p_limit integer, p_window interval) is 'Internal: counts one attempt against a fixed window; returns 0 when allowed, else the seconds to wait.';
revoke execute on function private.hit_rate_limit(p_key text, p_limit integer, p_window interval) from public;

create function public.is_api_caller()
 returns boolean
 language sql
 stable
 set search_path to ''
as $function$
  select current_user in ('anon', 'authenticated')
$function$;
comment on function public.is_api_caller() is 'True when the statement runs as anon or authenticated (not inside a definer function, not the service role).';
revoke execute on function public.is_api_caller() from public;

create function public.is_bot_user_agent(p_user_agent text)
 returns boolean
 language sql
 immutable parallel safe
 set search_path to ''
as $function$
  select p_user_agent is null or trim(p_user_agent) = ''
    or p_user_agent ~* (
      'bot|crawl|spider|slurp|facebookexternalhit|embedly|preview|curl/|wget|python-requests|python-urllib|aiohttp|'
      || 'httpclient|go-http-client|java/|libwww|scrapy|headless|phantomjs|axios/|node-fetch|undici|okhttp|postman')
    -- isbot 5.2.3's pattern, translated for PostgreSQL by scripts/isbot-sql-pattern.mjs.
    or p_user_agent ~* ' daum[ /]| deusu\/|(?:^|[^g])news(?!sapphire)|(?<! channel\/|google\/)google(?!(?:wv|app|\/google| pixel))|(?<! cu)bots?(?:\y|_)|(?<!cam)scan|(?<!lib)http|24x7|;\s\w+;$|@[a-z][\w\-]+\.|\(\)|\.com\y|\y\w+\/1\.0;|\ybw\/|\ydlc\y|\yort\/|\yperl\y|\ytime\/|\||^[<\(;]|^[\w \.\-\(?:\):%]+(?:\/v?\d+(?:\.\d+)?(?:\.\d{1,10})*?)?(?:,|$)|^[\w\-]+\/[\w]+$|^[^ ]{50,}$|^\d+\y|^\w*search\y|^\w+\/[\w\(\)]*$|^\w+\/\d\.\d\s\([\w@]+\)$|^active|^ad muncher|^amaya|^apache\/|^avsdevicesdk\/|^azure|^biglotron|^blackbox exporter|^bot|^clamav[ /]|^claude-code\/|^client\/|^cobweb\/|^custom|^ddg[_-]android|^discourse|^dispatch\/\d|^downcast\/|^duckduckgo|^email|^exodusmovement|^facebook|^getright\/|^gozilla\/|^hobbit|^hotzonu|^hwcdn\/|^igetter\/|^jeode\/|^jetty\/|^jigsaw|^microsoft bits|^movabletype|^mozilla\/\d\.\d\s[\w\.-]+$|^mozilla\/\d\.\d\s\((?:compatible;)?(?:\s?[\w\d\-.]+[\s/]\d+\.\d+)?\)$|^navermailapp|^netsurf|^offline|^openai\/|^owler|^php|^postman|^ps_daily\/|^python|^rank|^read|^reed|^remove\.bg\/|^rest|^rss|^snapchat|^sora |^space bison|^stape\/|^svn|^swcd |^taringa|^thumbor\/|^track|^w3c|^webbandit\/|^webcopier|^wget|^whatsapp|^wordpress|^xenu link sleuth|^yahoo|^yandex|^zdm\/\d|^zoom marketplace\/|abuse|advisor|agent\y|analyzer|archive|ask jeeves\/teoma|attracta|audit|bluecoat drtr|browsex|burpcollaborator|capture|catch|check\y|checker|chrome-lighthouse|chromeframe|classifier|cloudflare|collapsify\y|convertify|cookiehubverify\/|crawl|cursor\/|cypress\/|dareboost|datanyze|dejaclick|detect|discovery|dmbrowser|download|exaleadcloudview|feed|firephp|foregenix|functionize|grab|hardenize\y|headless|hotjar|httrack|hubspot marketing grader|ibisbrowser|infrawatch|insight|inspect|iplabel|java(?!;)|library|linkcheck|linktiger|mail\.ru\/|manus-user\/|marketgoo\/|measure|monitor\y|neustar wpm|node\y|nutch|offbyone|openvas|optimize|pageburst|pagespeed|parser|phantomjs|pingdom|playwright|powermarks|preview|productfinder|prospectingstudio|proxy|ptst[ /]\d|radar|readable\/|retriever|rexx;|rigor|rss\y|scrape|securityheaders|selenium|server|silktide|sindup\/|sogou|sparkler\/|speedcurve|spider|splash|statuscake|supercleaner|synapse|synthetic|testlocally|tools|torrent|transcoder|url|validator|virtuoso|wappalyzer|watchtowr|webglance|webkit2png|whatcms\/|xtate\/'
$function$;
comment on function public.is_bot_user_agent(p_user_agent text) is 'The bot filter for clicks: empty user agents, isbot''s pattern, and known HTTP libraries.';
revoke execute on function public.is_bot_user_agent(p_user_agent text) from public;

create function private.is_non_public_address(p_addr inet)
 returns boolean
 language sql
 immutable
 set search_path to ''
as $function$
  select case when family(p_addr) = 4 then
    p_addr << any (array['0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12',
      '192.0.0.0/24', '192.0.2.0/24', '192.88.99.0/24', '192.168.0.0/16', '198.18.0.0/15', '198.51.100.0/24',
      '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4']::inet[])
    or p_addr = any (array['0.0.0.0', '255.255.255.255']::inet[])
  else
    -- Only global unicast (2000::/3), minus documentation, 6to4 and Teredo (both can carry a private IPv4).
    not (p_addr << '2000::/3'::inet)
    or p_addr << any (array['2001:db8::/32', '2002::/16', '2001::/32']::inet[])
  end
$function$;
comment on function private.is_non_public_address(p_addr inet) is 'Internal: private, loopback, link-local, shared, reserved, documentation or multicast addresses.';
revoke execute on function private.is_non_public_address(p_addr inet) from public;

create function private.require_aal2()
 returns void
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  -- The service role (edge functions, jobs) has no session to raise; it is trusted by construction.
  if (select auth.role()) = 'service_role' then
    return;
  end if;
  perform private.require_live_session();
  if private.session_aal() <> 'aal2' and private.has_verified_factor((select auth.uid())) then
    raise exception 'Enter your two-factor code to do this' using errcode = '42501',
      hint = 'Sign in again and enter the code from your authenticator app.';
  end if;
end
$function$;
comment on function private.require_aal2() is 'First line of every non-admin function that moves money or rights: the session must still exist, and users with a verified factor must be at aal2.';
revoke execute on function private.require_aal2() from public;

create function private.require_live_session()
 returns void
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  if not public.session_is_live() then
    raise exception 'Your session has ended. Sign in again.' using errcode = '42501',
      hint = 'You signed out on this device or everywhere, or your password changed; sign in to continue.';
  end if;
end
$function$;
comment on function private.require_live_session() is 'First line of every function that moves money or uses admin rights: refuses a token whose session has ended.';
revoke execute on function private.require_live_session() from public;

create function private.session_aal()
 returns text
 language sql
 stable
 set search_path to ''
as $function$
  select coalesce((select auth.jwt()) ->> 'aal', 'aal1')
$function$;
comment on function private.session_aal() is 'The assurance level of the calling session (aal1 when the token says nothing).';
revoke execute on function private.session_aal() from public;

create function public.session_is_live()
 returns boolean
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  sid text := (select auth.jwt()) ->> 'session_id';
begin
  -- Visitors have no session, and the service role (edge functions, jobs) is trusted by construction.
  if (select auth.role()) is distinct from 'authenticated' then
    return true;
  end if;
  if sid is null or sid !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return false;
  end if;
  -- not_after (hosted GoTrue's time-boxed sessions) is read through to_jsonb: the local table has no such column.
  return exists (
    select 1 from auth.sessions s
    where s.id = sid::uuid and s.user_id = (select auth.uid())
      and coalesce((to_jsonb(s) ->> 'not_after')::timestamptz, 'infinity') > now());
end
$function$;
comment on function public.session_is_live() is 'Whether the signed-in caller''s session (the JWT''s session_id) still exists in auth.sessions: false after a sign-out, a password change elsewhere or refresh-token reuse. Policies on money tables and every admin and money function rely on it.';
revoke execute on function public.session_is_live() from public;

create function public.set_updated_at()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  new.updated_at := now();
  return new;
end
$function$;
comment on function public.set_updated_at() is 'Keeps updated_at honest on every row update.';
revoke execute on function public.set_updated_at() from anon, authenticated, public;

create function private.utc_day(p_at timestamp with time zone)
 returns date
 language sql
 immutable parallel safe
 set search_path to ''
as $function$ select (p_at at time zone 'utc')::date $function$;
comment on function private.utc_day(p_at timestamp with time zone) is 'Internal: the UTC calendar day every per-day figure is bucketed by.';
revoke execute on function private.utc_day(p_at timestamp with time zone) from public;

create function private.visitor_hash(p_ip text, p_user_agent text, p_day date)
 returns text
 language sql
 stable security definer
 set search_path to ''
as $function$
  select encode(sha256(convert_to(
    coalesce(p_ip, '') || '|' || coalesce(p_user_agent, '') || '|' ||
    encode(sha256((select visitor_salt_secret from private.settings) || convert_to(p_day::text, 'UTF8')), 'hex'),
    'UTF8')), 'hex')
$function$;
comment on function private.visitor_hash(p_ip text, p_user_agent text, p_day date) is 'PRODUCT: visitor hash = sha256 of IP + user agent + the daily salt of the given day (clicks and subscriptions use the same).';
revoke execute on function private.visitor_hash(p_ip text, p_user_agent text, p_day date) from public;

-- === Rows the schema ships with ==========================================================================

insert into private.settings (id, client_ip_header, allow_loopback_webhooks) values
  ('true', 'x-real-ip', 'false');

-- === Scheduled jobs (pg_cron) ============================================================================

select cron.schedule('purge-rate-limits', '37 3 * * *', $job$delete from private.rate_limits where window_start < now() - interval '1 day'$job$);
