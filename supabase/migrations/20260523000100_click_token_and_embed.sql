-- Recommendations wherever a reader is (issue 41; ARCHITECTURE "Wave 4 interfaces": embed, click token, email
-- one-click).
--
-- Click token. A reader who taps a link inside X, Instagram or TikTok opens it in an in-app browser whose storage
-- Safari never sees; finishing later in Safari, or on mobile data instead of Wi-Fi, they were recorded `no_click`.
-- Now a counted click carries a signed token, issued by the database function that records it
-- (track_audience_source_click answers `click_token`), and the SPA puts it in the URL it lands on (`ct=…`); the
-- subscribe function hands it to create_pending_subscriptions (p_click_token). The token is
-- `{click id}.{expiry, unix seconds}.{HMAC-SHA256 of version, click, source and expiry, 128 bits, hex}`, keyed by
-- private.settings.click_token_secret, which never leaves the database (no client, no edge function holds it).
-- It is bound to its click and source (a token presented for another source is ignored), expires 72 hours after the
-- click (the expiry is in the token, and the click's time is derived from it, so the lookup prunes to one
-- partition), and backs the readers of at most 2 addresses besides its clicker (the reader's own typo corrected, a
-- second inbox): a token posted publicly cannot attribute unrelated readers. Every other rule applies unchanged
-- (the click itself must have been counted, so bots and duplicate visitors get no token; velocity, duplicates, the
-- domain limit, self-referral). A subscriber backed by a token rather than by the same visitor is marked
-- `click_token_used`, and publisher_embed_figures reports how many such subscribers were counted per source.
--
-- Channels. A click records where it came from (`link_clicks.channel`: link, embed, email) and the subscription
-- made through it keeps it (`newsletter_subscriptions.channel`), so the embed's own figures come from the database.
--
-- Embed. `/embed/{code}` (an iframe placed by `/embed.js`) calls embed_load once per load: it records the load
-- (public.embed_loads, one row a source a day; bots are not counted) and answers the source and its offers; the
-- reader's first use of the form records a click with channel 'embed' through track_audience_source_click, and
-- the subscription carries the source and is counted like a magic-link subscriber.
--
-- Redefined here (bodies taken from their newest definitions, after 20260522000100_partner_programs: a partner's
-- price and not_a_partner are kept): public.track_audience_source_click (channel, click_token),
-- public.create_pending_subscriptions (a new argument p_click_token, so the old signature is dropped),
-- private.paid_subscriber_refusal (a token backs the click).

-- === Columns ===============================================================================================

alter table private.settings add column click_token_secret bytea default extensions.gen_random_bytes(32) not null;
comment on column private.settings.click_token_secret is 'The key of the click tokens (private.click_token): HMAC-SHA256, never sent to any client or function. Replacing it voids every token not yet used.';

alter table public.link_clicks add column channel text default 'link'::text not null;
alter table public.link_clicks add constraint link_clicks_channel_check check ((channel = any (array['link'::text, 'embed'::text, 'email'::text])));
comment on column public.link_clicks.channel is 'Where the click came from: link (a magic link), embed (the form of /embed.js on the publisher''s site, at its first use), email (a magic link with ?email=, from the publisher''s own newsletter).';

alter table public.newsletter_subscriptions add column channel text;
alter table public.newsletter_subscriptions add column click_token_used boolean default false not null;
alter table public.newsletter_subscriptions add constraint newsletter_subscriptions_channel_check check ((channel = any (array['link'::text, 'embed'::text, 'email'::text])));
comment on column public.newsletter_subscriptions.channel is 'The channel of the click the subscriber came through (link_clicks.channel); null without a source.';
comment on column public.newsletter_subscriptions.click_token_used is 'The click was carried by a signed click token (ct=…) to another browser or address than the one that clicked: the same-visitor rule could not back it, the token did (private.click_token_backs).';

-- === Embed loads ===========================================================================================

create table public.embed_loads (
  audience_source_id uuid not null,
  day date default current_date not null,
  loads integer default 0 not null,
  constraint embed_loads_pkey primary key (audience_source_id, day),
  constraint embed_loads_loads_check check ((loads >= 0)),
  constraint embed_loads_audience_source_id_fkey foreign key (audience_source_id) references public.audience_sources(id) on delete cascade
);
alter table public.embed_loads enable row level security;
comment on table public.embed_loads is 'How many times a source''s embed (/embed/{code}) was shown, a row a day; written only by embed_load. Bots are not counted.';
grant select on table public.embed_loads to authenticated;
grant select, insert, update, delete on table public.embed_loads to service_role;

create policy "Publishers can read the loads of their sources' embeds" on public.embed_loads
  for select to authenticated
  using ((exists ( select 1
   from public.audience_sources s
  where ((s.id = embed_loads.audience_source_id) and (s.publisher_id = ( select auth.uid() as uid))))));
create policy "Admins can read every embed load" on public.embed_loads
  for select to authenticated
  using (( select public.is_admin() as is_admin));

-- === Click tokens ==========================================================================================

create function private.click_token(p_click_id uuid, p_source_id uuid, p_clicked_at timestamp with time zone)
 returns text
 language sql
 stable security definer
 set search_path to ''
as $function$
  select p_click_id::text || '.' || e::text || '.' || left(encode(extensions.hmac(
      convert_to('ct1|' || p_click_id::text || '|' || p_source_id::text || '|' || e::text, 'UTF8'),
      (select click_token_secret from private.settings), 'sha256'), 'hex'), 32)
  -- Valid for 72 hours after the click (private.click_token_click derives the click's time from the expiry).
  from (select floor(extract(epoch from p_clicked_at))::bigint + 259200 as e) expiry
$function$;
comment on function private.click_token(p_click_id uuid, p_source_id uuid, p_clicked_at timestamp with time zone) is 'Internal: the signed click token of a counted click, {click}.{expiry}.{hmac}, valid 72 hours; track_audience_source_click answers it.';
revoke execute on function private.click_token(p_click_id uuid, p_source_id uuid, p_clicked_at timestamp with time zone) from public;

create function private.click_token_click(p_token text, p_source_id uuid)
 returns uuid
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  parts text[];
  expires bigint;
  l record;
begin
  if p_token is null
     or p_token !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[0-9]{1,12}\.[0-9a-f]{32}$' then
    return null;
  end if;
  parts := string_to_array(p_token, '.');
  expires := parts[2]::bigint;
  if to_timestamp(expires) <= now() then
    return null;
  end if;
  select c.id, c.audience_source_id, c.counted, c.created_at into l from public.link_clicks c
    where c.id = parts[1]::uuid
      and c.created_at >= to_timestamp(expires - 259200) and c.created_at < to_timestamp(expires - 259200 + 1);
  if not found or not l.counted or (p_source_id is not null and l.audience_source_id <> p_source_id) then
    return null;
  end if;
  if private.click_token(l.id, l.audience_source_id, l.created_at) <> p_token then
    return null;
  end if;
  return l.id;
end
$function$;
comment on function private.click_token_click(p_token text, p_source_id uuid) is 'Internal: the click a token names when its signature is right, it has not expired, the click was counted and (given a source) is of that source; else null.';
revoke execute on function private.click_token_click(p_token text, p_source_id uuid) from public;

create or replace function public.track_audience_source_click(unified_code text, device_info jsonb default '{}'::jsonb)
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
  click_at timestamp with time zone;
  v_channel text := case when info ->> 'channel' in ('embed', 'email') then info ->> 'channel' else 'link' end;
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
    connection, device_info, channel
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
    case when length(info::text) <= 8192 then info else '{}'::jsonb end,
    v_channel
  )
  returning id, created_at into click_id, click_at;

  return jsonb_build_object(
    'click_id', click_id, 'source_id', src.id, 'source_name', src.name, 'unified_code', src.unified_code,
    'status', case when public.is_source_public(src.status) then 'valid' else 'inactive' end,
    'source_status', src.status, 'counted', reason is null, 'not_counted_reason', reason,
    -- Only a counted click can back a subscriber, so only a counted click carries a token.
    'click_token', case when reason is null then private.click_token(click_id, src.id, click_at) end);
end
$function$;
comment on function public.track_audience_source_click(unified_code text, device_info jsonb) is 'SPEC §7: resolves a magic-link code (unified code, magic/{code}, id), records the click with its counted flag and reason and its channel (device_info.channel: embed or email, else link), returns click_id and source_id, and for a counted click its signed click_token (72 hours).';

drop function public.create_pending_subscriptions(p_email text, p_campaign_ids uuid[], p_token_hashes text[], p_audience_source_id uuid, p_click_id uuid, p_ip text, p_user_agent text);

create function public.create_pending_subscriptions(p_email text, p_campaign_ids uuid[], p_token_hashes text[], p_audience_source_id uuid default null::uuid, p_click_id uuid default null::uuid, p_ip text default null::text, p_user_agent text default null::text, p_click_token text default null::text)
 returns table(campaign_id uuid, campaign_name text, result text)
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  addr text := lower(trim(coalesce(p_email, '')));
  i integer;
  c public.campaigns;
  s public.newsletter_subscriptions;
  v_source_id uuid := p_audience_source_id;
  v_click_id uuid := p_click_id;
  ip text := left(p_ip, 100);
  agent text := left(p_user_agent, 1000);
  hash text;
  existing boolean;
  fresh boolean;
  token_click uuid;
  by_token boolean := false;
  v_channel text;
  v_price numeric(12, 2);
begin
  if addr !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' or char_length(addr) > 254 then
    raise exception 'Please enter a valid email address' using errcode = '22023';
  end if;
  if coalesce(cardinality(p_campaign_ids), 0) = 0 then
    raise exception 'Choose at least one newsletter' using errcode = '22023';
  end if;
  if cardinality(p_campaign_ids) <> coalesce(cardinality(p_token_hashes), 0)
     or (select count(distinct x) from unnest(p_campaign_ids) x) <> cardinality(p_campaign_ids) then
    raise exception 'Each newsletter needs its own confirmation token' using errcode = '22023';
  end if;
  -- A click id is only trusted when it belongs to the given source (or names the source itself).
  if v_click_id is not null then
    select coalesce(v_source_id, l.audience_source_id) into v_source_id from public.link_clicks l
      where l.id = v_click_id and (v_source_id is null or l.audience_source_id = v_source_id);
    if not found then
      v_click_id := null;
      v_source_id := p_audience_source_id;
    end if;
  end if;
  -- A signed click token (issued with a counted click, bound to its source and click, unexpired) carries its click
  -- to another browser or address: it backs the subscriber where the same-visitor rule cannot (in-app browser ->
  -- Safari, Wi-Fi -> mobile data). A token of another source, forged or expired is ignored, as if none was sent.
  if p_click_token is not null then
    token_click := private.click_token_click(p_click_token, p_audience_source_id);
    if token_click is not null then
      v_click_id := token_click;
      select l.audience_source_id into v_source_id from public.link_clicks l where l.id = token_click limit 1;
      -- The visitor who clicked needs no token: they count by the same-visitor rule, so only a changed browser or
      -- address is recorded as counted by token.
      by_token := not private.click_backs_subscription(token_click, v_source_id, ip, agent, now());
    end if;
  end if;
  if v_source_id is not null and not exists (select 1 from public.audience_sources where id = v_source_id) then
    v_source_id := null;
    v_click_id := null;
    by_token := false;
  end if;
  if v_click_id is not null then
    select l.channel into v_channel from public.link_clicks l where l.id = v_click_id limit 1;
  end if;
  v_channel := case when v_source_id is not null then coalesce(v_channel, 'link') end;
  hash := private.visitor_hash(ip, agent, current_date);

  for i in 1 .. cardinality(p_campaign_ids) loop
    if not exists (select 1 from public.campaigns where id = p_campaign_ids[i]) then
      raise exception 'This newsletter is not accepting subscribers' using errcode = '22023';
    end if;
    -- Lock order of every money function: the advertiser's wallet, then the campaign.
    perform private.lock_wallet((select advertiser_id from public.campaigns where id = p_campaign_ids[i]));
    select * into c from public.campaigns where id = p_campaign_ids[i] for update;
    select * into s from public.newsletter_subscriptions n
      where n.campaign_id = p_campaign_ids[i] and n.email = addr::extensions.citext for update;
    existing := found;
    campaign_id := c.id; campaign_name := c.name;

    if existing and s.status in ('confirmed', 'rejected') then
      result := case when s.status = 'confirmed' then 'already_confirmed' else s.status end;
      return next;
      continue;
    end if;
    -- A live pending subscription gets a new link and keeps everything else, attribution above all:
    -- whoever re-submits someone's address cannot move it to their own source.
    fresh := not existing or s.status <> 'pending' or s.token_expires_at <= now();
    if not fresh then
      update public.newsletter_subscriptions set token_hash = p_token_hashes[i],
        token_expires_at = now() + interval '48 hours', armed_at = clock_timestamp()
        where id = s.id;
      result := 'pending';
      return next;
      continue;
    end if;

    if c.id is null or c.status <> 'active' or c.funding_status <> 'funded' then
      raise exception 'This newsletter is not accepting subscribers' using errcode = '22023';
    end if;
    if existing then
      perform private.release_reservation(s.id);
      update public.newsletter_subscriptions set
        status = 'pending', token_hash = p_token_hashes[i], token_expires_at = now() + interval '48 hours',
        armed_at = clock_timestamp(), audience_source_id = v_source_id, click_id = v_click_id,
        click_token_used = by_token, channel = v_channel,
        counted = false, not_counted_reason = null, price = null, confirmed_at = null,
        subscribe_ip = ip, subscribe_user_agent = agent, visitor_hash = hash, attributed_at = clock_timestamp()
        where id = s.id
        returning * into s;
    else
      insert into public.newsletter_subscriptions
        (campaign_id, email, status, token_hash, token_expires_at, armed_at, audience_source_id, click_id,
         subscribe_ip, subscribe_user_agent, visitor_hash, attributed_at, click_token_used, channel)
      values (c.id, addr, 'pending', p_token_hashes[i], now() + interval '48 hours', clock_timestamp(), v_source_id,
        v_click_id, ip, agent, hash, clock_timestamp(), by_token, v_channel)
      returning * into s;
    end if;

    -- Reserve the price now for a subscriber the rule would pay for, so the promise holds at confirmation.
    -- The price is the source's own (an approved partner's price_override) or the newsletter's.
    if v_source_id is not null and private.paid_subscriber_refusal(s, false) is null then
      if c.budget_total - c.budget_spent - c.budget_reserved < c.price_per_subscriber
         or private.wallet_available(c.advertiser_id) < c.price_per_subscriber then
        raise exception 'This newsletter is not accepting subscribers' using errcode = '22023';
      end if;
      v_price := private.partner_price(c.id, v_source_id);
      -- A partner's own price above what is left is not promised: the reader subscribes, unpaid (budget_exhausted).
      if c.budget_total - c.budget_spent - c.budget_reserved >= v_price
         and private.wallet_available(c.advertiser_id) >= v_price then
        update public.newsletter_subscriptions set price = v_price, reserved_amount = v_price
          where id = s.id;
        update public.campaigns set budget_reserved = budget_reserved + v_price,
          reservations_open = reservations_open + 1
          where id = c.id;
        perform private.refresh_campaign_funding(c.advertiser_id);
      end if;
    end if;
    result := 'pending';
    return next;
  end loop;
end
$function$;
comment on function public.create_pending_subscriptions(p_email text, p_campaign_ids uuid[], p_token_hashes text[], p_audience_source_id uuid, p_click_id uuid, p_ip text, p_user_agent text, p_click_token text) is 'subscribe edge function, service role only: one pending row per campaign (new, or re-armed when expired or unsubscribed; a live pending one only gets a new token and keeps its attribution). Reserves the locked price when the subscriber would be paid for. result: pending | already_confirmed | rejected. All or nothing. p_click_token: the link''s signed click token (ct=…); valid, it names the click and source even when the browser or address changed since the click (click_token_used).';
revoke execute on function public.create_pending_subscriptions(p_email text, p_campaign_ids uuid[], p_token_hashes text[], p_audience_source_id uuid, p_click_id uuid, p_ip text, p_user_agent text, p_click_token text) from public;
grant execute on function public.create_pending_subscriptions(p_email text, p_campaign_ids uuid[], p_token_hashes text[], p_audience_source_id uuid, p_click_id uuid, p_ip text, p_user_agent text, p_click_token text) to service_role;

create function private.click_token_backs(s public.newsletter_subscriptions)
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select exists (
      select 1 from public.link_clicks l
      where l.id = s.click_id and l.audience_source_id = s.audience_source_id and l.counted
        and l.created_at <= coalesce(s.attributed_at, s.created_at)
        and l.created_at > coalesce(s.attributed_at, s.created_at) - interval '72 hours')
    -- One token backs at most 2 addresses besides its clicker's, the first ones to use it: a link with its token
    -- posted publicly does not attribute a crowd.
    and (select count(distinct o.email_canonical) from public.newsletter_subscriptions o
         where o.click_id = s.click_id and o.click_token_used and o.id <> s.id
           and o.email_canonical <> s.email_canonical and o.status in ('pending', 'confirmed')
           and (coalesce(o.attributed_at, o.created_at), o.id) < (coalesce(s.attributed_at, s.created_at), s.id)) < 2
$function$;
comment on function private.click_token_backs(s public.newsletter_subscriptions) is 'Internal: the click token rule, beside the same-visitor rule of no_click: the token''s counted click of the same source within 72 hours before subscribing, and at most 2 earlier other addresses backed by that token.';
revoke execute on function private.click_token_backs(s public.newsletter_subscriptions) from public;

create or replace function private.paid_subscriber_refusal(s public.newsletter_subscriptions, p_confirming boolean)
 returns text
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  src public.audience_sources;
  c public.campaigns;
  reader_domain text := public.email_domain(s.email_canonical);
begin
  select * into src from public.audience_sources where id = s.audience_source_id;
  select * into c from public.campaigns where id = s.campaign_id;
  if not found or not public.is_source_public(src.status) then
    return 'source_inactive';
  end if;
  -- A suspended publisher's links stop earning and a suspended advertiser's newsletters stop paying.
  if public.account_is_suspended(src.publisher_id) or public.account_is_suspended(c.advertiser_id) then
    return 'account_suspended';
  end if;
  -- Partner programs: a blocked source, or a source the advertiser has not approved for a newsletter by approval.
  if not private.source_may_promote(c.id, src.id) then
    return 'not_a_partner';
  end if;
  if s.email_canonical in (
       select public.canonical_email(p.email::text) from public.profiles p where p.id in (src.publisher_id, c.advertiser_id)) then
    return 'self_referral';
  end if;
  -- Once per campaign, ever: an inbox that was paid for (even if refunded since) never pays twice.
  if s.first_paid_at is not null
     or exists (select 1 from public.newsletter_subscriptions o
                where o.campaign_id = s.campaign_id and o.email_canonical = s.email_canonical and o.id <> s.id
                  and o.first_paid_at is not null) then
    return 'duplicate_email';
  end if;
  if s.click_id is null
     or not (private.click_backs_subscription(s.click_id, s.audience_source_id, s.subscribe_ip, s.subscribe_user_agent,
                                                 coalesce(s.attributed_at, s.created_at))
             or (s.click_token_used and private.click_token_backs(s))) then
    return 'no_click';
  end if;
  if p_confirming then
    -- One visitor (address and browser) converts at most 3 times an hour for one source; one address, shared by a
    -- household or an office Wi-Fi, at most 10. Each limit has its own reason, so the label says which.
    if (select count(*) from public.newsletter_subscriptions o
        where o.audience_source_id = s.audience_source_id and o.counted and o.id <> s.id
          and o.confirmed_at > now() - interval '1 hour'
          and o.visitor_hash = s.visitor_hash) >= 3 then
      return 'velocity';
    end if;
    if s.subscribe_ip is not null and (select count(*) from public.newsletter_subscriptions o
        where o.audience_source_id = s.audience_source_id and o.counted and o.id <> s.id
          and o.confirmed_at > now() - interval '1 hour'
          and o.subscribe_ip = s.subscribe_ip) >= 10 then
      return 'address_velocity';
    end if;
    -- One email domain (not webmail) brings at most 3 paid readers a day through one source: a company's colleagues
    -- count, a catch-all's scripted inboxes do not. A reader already paid through the source today takes no new place.
    if not private.is_freemail_domain(reader_domain) and (
        select count(distinct o.email_canonical) from public.newsletter_subscriptions o
        where o.audience_source_id = s.audience_source_id and o.counted
          and public.email_domain(o.email_canonical) = reader_domain
          and o.confirmed_at > now() - interval '24 hours'
          and o.email_canonical <> s.email_canonical) >= 3 then
      return 'domain_velocity';
    end if;
    if clock_timestamp() - s.armed_at < interval '2 seconds' then
      return 'too_fast_confirmation';
    end if;
  end if;
  return null;
end
$function$;

-- === Embed =================================================================================================

create function public.embed_load(p_code text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  headers jsonb := coalesce(nullif(current_setting('request.headers', true), '')::jsonb, '{}'::jsonb);
  client_ip text := private.client_ip();
  src record;
begin
  select s.id, s.name, s.unified_code, s.status, s.publisher_id into src
    from public.audience_sources s where s.unified_code = lower(trim(coalesce(p_code, '')));
  if not found then
    return jsonb_build_object('status', 'not_found', 'source', null, 'offers', '[]'::jsonb);
  end if;
  if not public.is_source_public(src.status) or public.account_is_suspended(src.publisher_id) then
    return jsonb_build_object('status', 'inactive', 'source', null, 'offers', '[]'::jsonb);
  end if;
  -- Bots are not readers, the publisher's own look at it (the dashboard's preview, signed in) is not a load, and one
  -- address counts at most 30 loads of a source an hour (an office behind one address; a script reloading it not).
  if not public.is_bot_user_agent(headers ->> 'user-agent') and (select auth.uid()) is distinct from src.publisher_id
     and (client_ip is null or private.hit_rate_limit('embed-load:' || src.id || ':' || client_ip, 30, interval '1 hour') = 0) then
    insert into public.embed_loads as e (audience_source_id, day, loads) values (src.id, current_date, 1)
      on conflict (audience_source_id, day) do update set loads = e.loads + 1;
  end if;
  return jsonb_build_object('status', 'valid',
    'source', jsonb_build_object('id', src.id, 'name', src.name, 'unified_code', src.unified_code),
    'offers', coalesce((
      select jsonb_agg(jsonb_build_object('id', o.id, 'name', o.name, 'description', o.description) order by o.n)
      from (
        select c.id, c.name, left(c.description, 200) as description,
          row_number() over (order by c.price_per_subscriber desc, c.name, c.id) as n
        from public.campaigns c
        where c.status = 'active' and c.funding_status = 'funded' and not public.account_is_suspended(c.advertiser_id)
        order by c.price_per_subscriber desc, c.name, c.id
        limit 6
      ) o), '[]'::jsonb));
end
$function$;
comment on function public.embed_load(p_code text) is 'The embed (/embed/{code}): counts one load of the source''s embed (not for bots, nor for its own publisher signed in: the dashboard''s preview; at most 30 an hour from one address) and answers the source and up to 6 newsletters open for subscribers, best paid first. status: valid | inactive | not_found.';
revoke execute on function public.embed_load(p_code text) from public;
grant execute on function public.embed_load(p_code text) to anon, authenticated, service_role;

create function public.publisher_embed_figures()
 returns table(source_id uuid, source_name text, unified_code text, status text, loads bigint, subscribers bigint, paid_subscribers bigint, token_subscribers bigint)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select s.id, s.name, s.unified_code, s.status,
    coalesce((select sum(e.loads) from public.embed_loads e where e.audience_source_id = s.id), 0)::bigint,
    (select count(*) from public.newsletter_subscriptions n
     where n.audience_source_id = s.id and n.channel = 'embed' and n.confirmed_at is not null),
    (select count(*) from public.newsletter_subscriptions n
     where n.audience_source_id = s.id and n.channel = 'embed' and n.counted),
    (select count(*) from public.newsletter_subscriptions n
     where n.audience_source_id = s.id and n.click_token_used and n.counted)
  from public.audience_sources s
  where s.publisher_id = (select auth.uid())
  order by s.created_at, s.id
$function$;
comment on function public.publisher_embed_figures() is 'The Embed page: each of the caller''s sources with its embed''s loads, its confirmed and paid subscribers through the embed, and (every channel) the paid subscribers a click token carried to another browser or address.';
revoke execute on function public.publisher_embed_figures() from public;
grant execute on function public.publisher_embed_figures() to authenticated, service_role;
