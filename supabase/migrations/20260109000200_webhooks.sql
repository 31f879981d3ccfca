-- Webhooks to advertisers (PRODUCT "Subscriptions"), per the Standard Webhooks specification: an advertiser
-- registers https endpoints (all their campaigns or one); each gets a `whsec_` secret shown once. The events
-- subscriber.confirmed and subscriber.refunded are queued as deliveries by a trigger in the same transaction
-- as the confirmation or refund, so an event that rolls back sends nothing and one that commits is never
-- lost. The deliver-webhooks edge function signs and sends them (the standardwebhooks package); it is called
-- through pg_net right after an event is queued and by the pg_cron job deliver-webhooks every minute, which
-- also retries failures with backoff over about a day (1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: 8 attempts).
-- An endpoint must be https on a public address: the database refuses literal private, loopback and
-- link-local addresses and localhost when it is saved; the function resolves the name and checks every
-- address (and every redirect) when it delivers. Only the embedded backend (local development) also allows
-- http://127.0.0.1, by setting private.settings.allow_loopback_webhooks when it starts.

alter table private.settings add column allow_loopback_webhooks boolean not null default false;
comment on column private.settings.allow_loopback_webhooks is
  'Local development only (supabase/local sets it at start): webhook endpoints may also be http://127.0.0.1.';

-- Why a URL may not receive webhooks, in words a person can act on; null when it may.
create function private.webhook_url_problem(p_url text)
returns text
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  m text[];
  scheme text;
  authority text;
  host text;
  port text;
  addr inet;
  loopback_ok boolean := coalesce((select allow_loopback_webhooks from private.settings), false);
begin
  if p_url is null or trim(p_url) = '' then
    return 'Enter the URL that should receive the webhooks';
  end if;
  if char_length(p_url) > 2048 then
    return 'The URL must be at most 2048 characters';
  end if;
  m := regexp_match(trim(p_url), '^([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)([/?#].*)?$');
  if m is null then
    return 'Enter a full URL, such as https://example.com/webhooks';
  end if;
  scheme := lower(m[1]);
  authority := m[2];
  if authority like '%@%' then
    return 'Leave user names and passwords out of the URL; verify the webhook signature instead';
  end if;
  if authority ~ '^\[' then
    m := regexp_match(authority, '^\[([0-9A-Fa-f:.]+)\](?::([0-9]{1,5}))?$');
  else
    m := regexp_match(authority, '^([^:]+)(?::([0-9]{1,5}))?$');
  end if;
  if m is null then
    return 'The address in the URL is not valid';
  end if;
  host := lower(rtrim(m[1], '.'));
  port := m[2];
  if port is not null and (port::integer < 1 or port::integer > 65535) then
    return 'The port must be between 1 and 65535';
  end if;
  -- Local development only: the embedded backend's own machine, over plain http.
  if scheme = 'http' and host = '127.0.0.1' and loopback_ok then
    return null;
  end if;
  if scheme <> 'https' then
    return 'The URL must start with https://';
  end if;
  if host = 'localhost' or host like '%.localhost' then
    return 'localhost is not a public address';
  end if;
  -- A name whose last label is a number is an IP address to a browser or fetch (even 0x7f.1 or 127.1).
  if host ~ '^[0-9.]+$' or host ~ '(^|\.)(0x[0-9a-f]*|[0-9]+)$' or authority ~ '^\[' then
    if authority !~ '^\[' and host !~ '^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$' then
      return 'Write an IP address as four numbers from 0 to 255, or use a domain name';
    end if;
    begin
      addr := host::inet;
    exception when others then
      return 'The address in the URL is not valid';
    end;
    if private.is_non_public_address(addr) then
      return 'The address ' || host || ' is private, loopback or link-local; use a public address';
    end if;
    return null;
  end if;
  if host !~ '^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$' then
    return 'Use a public domain name, such as example.com';
  end if;
  if host ~ '\.(local|internal|localdomain|home\.arpa|lan|intranet|corp)$' then
    return 'The name ' || host || ' is for a private network; use a public address';
  end if;
  return null;
end
$$;
comment on function private.webhook_url_problem(text) is
  'Internal: why a URL cannot receive webhooks (not https, credentials, localhost, a literal private/loopback/link-local address, a private-network name), or null.';
revoke execute on function private.webhook_url_problem(text) from public, anon, authenticated, service_role;

-- The same ranges deliver-webhooks checks for every address a name resolves to (_shared/public-address.ts).
create function private.is_non_public_address(p_addr inet)
returns boolean
language sql immutable
set search_path = ''
as $$
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
$$;
comment on function private.is_non_public_address(inet) is 'Internal: private, loopback, link-local, shared, reserved, documentation or multicast addresses.';
revoke execute on function private.is_non_public_address(inet) from public, anon, authenticated, service_role;

create table public.webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  advertiser_id uuid not null references public.profiles (id) on delete cascade,
  campaign_id uuid references public.campaigns (id) on delete cascade,
  url text not null,
  description text check (char_length(description) <= 200),
  events text[] not null default array['subscriber.confirmed', 'subscriber.refunded']
    check (cardinality(events) > 0 and events <@ array['subscriber.confirmed', 'subscriber.refunded']),
  secret text not null,
  enabled boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.webhook_endpoints is
  'Where an advertiser receives subscriber events: all their campaigns (campaign_id null) or one. The signing secret is shown once, when created or rotated; no API role can read it back.';
comment on column public.webhook_endpoints.secret is 'Standard Webhooks signing secret (whsec_ + base64 of 32 random bytes); only the service role reads it.';
create index webhook_endpoints_advertiser_idx on public.webhook_endpoints (advertiser_id, created_at desc);
create index webhook_endpoints_campaign_idx on public.webhook_endpoints (campaign_id) where campaign_id is not null;

alter table public.webhook_endpoints enable row level security;
create policy "Advertisers can read their own webhook endpoints"
  on public.webhook_endpoints for select to authenticated
  using ((select auth.uid()) = advertiser_id);
create policy "Admins can read every webhook endpoint"
  on public.webhook_endpoints for select to authenticated
  using ((select public.is_admin()));
create policy "Advertisers can edit their own webhook endpoints"
  on public.webhook_endpoints for update to authenticated
  using ((select auth.uid()) = advertiser_id)
  with check ((select auth.uid()) = advertiser_id);
create policy "Advertisers can delete their own webhook endpoints"
  on public.webhook_endpoints for delete to authenticated
  using ((select auth.uid()) = advertiser_id);
revoke all on public.webhook_endpoints from anon, authenticated;
grant select (id, advertiser_id, campaign_id, url, description, events, enabled, created_at, updated_at)
  on public.webhook_endpoints to authenticated;
grant update (url, description, events, enabled) on public.webhook_endpoints to authenticated;
grant delete on public.webhook_endpoints to authenticated;

create trigger webhook_endpoints_set_updated_at before update on public.webhook_endpoints
  for each row execute function public.set_updated_at();

-- Every write, whoever makes it: the URL must pass the rule, and the campaign must be the advertiser's.
create function private.check_webhook_endpoint()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  problem text := private.webhook_url_problem(new.url);
begin
  if problem is not null then
    raise exception '%', problem using errcode = '22023';
  end if;
  new.url := trim(new.url);
  if tg_op = 'UPDATE' and (new.advertiser_id is distinct from old.advertiser_id or new.secret is distinct from old.secret
      and public.is_api_caller()) then
    raise exception 'A webhook endpoint cannot change owner or secret this way' using errcode = '42501';
  end if;
  if new.campaign_id is not null
     and not exists (select 1 from public.campaigns where id = new.campaign_id and advertiser_id = new.advertiser_id) then
    raise exception 'Choose one of your own newsletters' using errcode = '42501';
  end if;
  return new;
end
$$;
comment on function private.check_webhook_endpoint() is 'Internal trigger: refuses URLs that may not receive webhooks, other people''s campaigns and owner changes.';
revoke execute on function private.check_webhook_endpoint() from public, anon, authenticated, service_role;
create trigger webhook_endpoints_check before insert or update on public.webhook_endpoints
  for each row execute function private.check_webhook_endpoint();

create function private.new_webhook_secret()
returns text
language sql volatile
set search_path = ''
as $$ select 'whsec_' || encode(extensions.gen_random_bytes(32), 'base64') $$;
comment on function private.new_webhook_secret() is 'Internal: a Standard Webhooks secret (whsec_ + base64 of 32 random bytes).';
revoke execute on function private.new_webhook_secret() from public, anon, authenticated, service_role;

create function public.create_webhook_endpoint(p_url text, p_campaign_id uuid default null, p_description text default null)
returns table (id uuid, secret text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
begin
  if me is null or public.current_user_type() <> 'advertiser' then
    raise exception 'Only advertisers can receive subscriber webhooks' using errcode = '42501';
  end if;
  if (select count(*) from public.webhook_endpoints w where w.advertiser_id = me) >= 10 then
    raise exception 'You can have at most 10 webhook endpoints; delete one first' using errcode = '22023';
  end if;
  return query
  insert into public.webhook_endpoints as w (advertiser_id, campaign_id, url, description, secret)
  values (me, p_campaign_id, p_url, nullif(trim(p_description), ''), private.new_webhook_secret())
  returning w.id, w.secret;
end
$$;
comment on function public.create_webhook_endpoint(text, uuid, text) is
  'An advertiser adds an endpoint (all campaigns, or one); answers its id and signing secret — the only time the secret is shown.';
revoke execute on function public.create_webhook_endpoint(text, uuid, text) from public, anon, authenticated;
grant execute on function public.create_webhook_endpoint(text, uuid, text) to authenticated;

create function public.rotate_webhook_secret(p_endpoint_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  fresh text := private.new_webhook_secret();
begin
  update public.webhook_endpoints set secret = fresh
    where id = p_endpoint_id and advertiser_id = (select auth.uid());
  if not found then
    raise exception 'You can only change your own webhook endpoints' using errcode = '42501';
  end if;
  return fresh;
end
$$;
comment on function public.rotate_webhook_secret(uuid) is 'Replaces an endpoint''s signing secret (a leaked one, or a lost one) and shows the new one once.';
revoke execute on function public.rotate_webhook_secret(uuid) from public, anon, authenticated;
grant execute on function public.rotate_webhook_secret(uuid) to authenticated;

create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  endpoint_id uuid not null references public.webhook_endpoints (id) on delete cascade,
  advertiser_id uuid not null references public.profiles (id) on delete cascade,
  -- The Standard Webhooks webhook-id: the same for every attempt and resend, so receivers can deduplicate.
  message_id text not null default 'msg_' || replace(gen_random_uuid()::text, '-', ''),
  event_type text not null check (event_type in ('subscriber.confirmed', 'subscriber.refunded', 'webhook.test')),
  subscription_id uuid references public.newsletter_subscriptions (id) on delete set null,
  payload jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'sending', 'succeeded', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  locked_until timestamptz,
  response_status integer,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (endpoint_id, message_id)
);
comment on table public.webhook_deliveries is
  'The delivery log: one row per event and endpoint, with its status, attempts, the last response code or error, and when to try again.';
create index webhook_deliveries_due_idx on public.webhook_deliveries (next_attempt_at) where status in ('pending', 'sending');
create index webhook_deliveries_endpoint_idx on public.webhook_deliveries (endpoint_id, created_at desc);
create index webhook_deliveries_advertiser_idx on public.webhook_deliveries (advertiser_id, created_at desc);
create index webhook_deliveries_subscription_idx on public.webhook_deliveries (subscription_id) where subscription_id is not null;

alter table public.webhook_deliveries enable row level security;
create policy "Advertisers can read deliveries to their endpoints"
  on public.webhook_deliveries for select to authenticated
  using ((select auth.uid()) = advertiser_id);
create policy "Admins can read every webhook delivery"
  on public.webhook_deliveries for select to authenticated
  using ((select public.is_admin()));
revoke all on public.webhook_deliveries from anon, authenticated;
grant select on public.webhook_deliveries to authenticated;
create trigger webhook_deliveries_set_updated_at before update on public.webhook_deliveries
  for each row execute function public.set_updated_at();

-- Calls deliver-webhooks through pg_net after commit (the project URL and key from Vault, as for notifications).
create function private.kick_webhooks()
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  base text := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url');
  key text := (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key');
  target text;
begin
  if base is null or key is null then
    return false;
  end if;
  target := rtrim(base, '/') || '/functions/v1/deliver-webhooks';
  if exists (select 1 from net.http_request_queue q where q.url = target) then
    return true;
  end if;
  perform net.http_post(
    url => target,
    body => '{}'::jsonb,
    headers => jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || key, 'apikey', key),
    timeout_milliseconds => 120000
  );
  return true;
end
$$;
comment on function private.kick_webhooks() is 'Internal: asks deliver-webhooks (via pg_net, after commit) to send what is due now.';
revoke execute on function private.kick_webhooks() from public, anon, authenticated, service_role;

-- One delivery per enabled endpoint of the campaign's advertiser that takes this event.
create function private.enqueue_subscriber_event(p_event text, s public.newsletter_subscriptions)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  c public.campaigns;
  n integer;
  payload jsonb;
begin
  select * into c from public.campaigns where id = s.campaign_id;
  if not exists (select 1 from public.webhook_endpoints w where w.advertiser_id = c.advertiser_id and w.enabled
                 and p_event = any (w.events) and (w.campaign_id is null or w.campaign_id = c.id)) then
    return 0;
  end if;
  payload := jsonb_build_object(
    'type', p_event,
    'timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'data', jsonb_build_object(
      'subscription_id', s.id,
      'campaign_id', c.id,
      'campaign_name', c.name,
      'email', s.email::text,
      'confirmed_at', to_char(s.confirmed_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'source_name', (select a.name from public.audience_sources a where a.id = s.audience_source_id),
      'charged', s.counted,
      'price', case when s.counted or p_event = 'subscriber.refunded' then s.price end,
      'reason', case when p_event = 'subscriber.refunded' then 'refunded' else s.not_counted_reason end));
  insert into public.webhook_deliveries (endpoint_id, advertiser_id, event_type, subscription_id, payload)
  select w.id, w.advertiser_id, p_event, s.id, payload
  from public.webhook_endpoints w
  where w.advertiser_id = c.advertiser_id and w.enabled and p_event = any (w.events)
    and (w.campaign_id is null or w.campaign_id = c.id);
  get diagnostics n = row_count;
  perform private.kick_webhooks();
  return n;
end
$$;
comment on function private.enqueue_subscriber_event(text, public.newsletter_subscriptions) is
  'Internal: queues a subscriber event for every endpoint that takes it, and asks for delivery after commit.';
revoke execute on function private.enqueue_subscriber_event(text, public.newsletter_subscriptions) from public, anon, authenticated, service_role;

create function private.subscription_webhooks()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.confirmed_at is null and new.confirmed_at is not null then
    perform private.enqueue_subscriber_event('subscriber.confirmed', new);
  elsif old.counted and not new.counted and new.not_counted_reason = 'refunded' then
    perform private.enqueue_subscriber_event('subscriber.refunded', new);
  end if;
  return null;
end
$$;
comment on function private.subscription_webhooks() is 'Internal trigger: a confirmation or a refund queues its webhook in the same transaction.';
revoke execute on function private.subscription_webhooks() from public, anon, authenticated, service_role;
create trigger newsletter_subscriptions_webhooks after update on public.newsletter_subscriptions
  for each row execute function private.subscription_webhooks();

create function public.send_test_webhook(p_endpoint_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  w public.webhook_endpoints;
  delivery uuid;
begin
  select * into w from public.webhook_endpoints where id = p_endpoint_id and advertiser_id = (select auth.uid());
  if not found then
    raise exception 'You can only test your own webhook endpoints' using errcode = '42501';
  end if;
  if (select count(*) from public.webhook_deliveries d where d.endpoint_id = w.id and d.event_type = 'webhook.test'
      and d.created_at > now() - interval '1 minute') >= 5 then
    raise exception 'You sent 5 test events in the last minute; wait a moment' using errcode = '22023';
  end if;
  insert into public.webhook_deliveries (endpoint_id, advertiser_id, event_type, payload)
  values (w.id, w.advertiser_id, 'webhook.test', jsonb_build_object(
    'type', 'webhook.test',
    'timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'data', jsonb_build_object('message', 'A test event from Growletter: your endpoint is reachable and verifies signatures.',
      'endpoint_id', w.id)))
  returning id into delivery;
  perform private.kick_webhooks();
  return delivery;
end
$$;
comment on function public.send_test_webhook(uuid) is 'The test-event button: queues a signed webhook.test event to one of the caller''s endpoints (5 a minute).';
revoke execute on function public.send_test_webhook(uuid) from public, anon, authenticated;
grant execute on function public.send_test_webhook(uuid) to authenticated;

create function public.resend_webhook_delivery(p_delivery_id uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  d public.webhook_deliveries;
begin
  select * into d from public.webhook_deliveries where id = p_delivery_id and advertiser_id = (select auth.uid()) for update;
  if not found then
    raise exception 'You can only resend your own deliveries' using errcode = '42501';
  end if;
  if d.status in ('pending', 'sending') then
    raise exception 'This delivery is already waiting to be sent' using errcode = '22023';
  end if;
  -- Same webhook-id: a receiver that already processed it can tell.
  update public.webhook_deliveries set status = 'pending', attempts = 0, next_attempt_at = now(), locked_until = null
    where id = d.id;
  perform private.kick_webhooks();
  return d.id;
end
$$;
comment on function public.resend_webhook_delivery(uuid) is 'The resend button: sends a delivered or given-up event again, with the same webhook-id and a fresh retry schedule.';
revoke execute on function public.resend_webhook_delivery(uuid) from public, anon, authenticated;
grant execute on function public.resend_webhook_delivery(uuid) to authenticated;

-- deliver-webhooks, service role only: takes due deliveries of enabled endpoints for 2 minutes (skip locked).
create function public.claim_webhook_deliveries(p_limit integer default 20)
returns table (id uuid, message_id text, event_type text, payload jsonb, url text, secret text, attempts integer)
language plpgsql
security definer
set search_path = ''
as $$
begin
  return query
  with due as (
    select d.id from public.webhook_deliveries d
    join public.webhook_endpoints w on w.id = d.endpoint_id
    where w.enabled and ((d.status = 'pending' and d.next_attempt_at <= now()) or (d.status = 'sending' and d.locked_until < now()))
    order by d.next_attempt_at
    limit least(greatest(coalesce(p_limit, 20), 1), 100)
    for update of d skip locked
  ), claimed as (
    update public.webhook_deliveries d
    set status = 'sending', attempts = d.attempts + 1, locked_until = now() + interval '2 minutes'
    from due where d.id = due.id
    returning d.id, d.message_id, d.event_type, d.payload, d.endpoint_id, d.attempts
  )
  select c.id, c.message_id, c.event_type, c.payload, w.url, w.secret, c.attempts
  from claimed c join public.webhook_endpoints w on w.id = c.endpoint_id;
end
$$;
comment on function public.claim_webhook_deliveries(integer) is
  'deliver-webhooks, service role only: takes up to p_limit due deliveries for 2 minutes, with the endpoint URL and secret to sign with.';
revoke execute on function public.claim_webhook_deliveries(integer) from public, anon, authenticated;
grant execute on function public.claim_webhook_deliveries(integer) to service_role;

create function private.webhook_retry_delay(p_attempts integer)
returns interval
language sql immutable
set search_path = ''
as $$
  select (array['1 minute', '5 minutes', '30 minutes', '2 hours', '5 hours', '10 hours', '10 hours']::interval[])[p_attempts]
$$;
comment on function private.webhook_retry_delay(integer) is 'Internal: the wait after the n-th failed attempt (null after the 8th: given up). About 28 hours in all.';
revoke execute on function private.webhook_retry_delay(integer) from public, anon, authenticated, service_role;

create function public.finish_webhook_delivery(p_id uuid, p_response_status integer, p_error text default null)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  d public.webhook_deliveries;
  delay interval;
begin
  select * into d from public.webhook_deliveries where id = p_id for update;
  if not found or d.status <> 'sending' then
    return coalesce(d.status, 'missing');
  end if;
  if p_error is null and p_response_status between 200 and 299 then
    update public.webhook_deliveries set status = 'succeeded', response_status = p_response_status, last_error = null,
      delivered_at = now(), locked_until = null
    where id = p_id;
    return 'succeeded';
  end if;
  delay := private.webhook_retry_delay(d.attempts);
  update public.webhook_deliveries set
    status = case when delay is null then 'failed' else 'pending' end,
    next_attempt_at = now() + coalesce(delay, interval '0'),
    response_status = p_response_status,
    last_error = left(coalesce(p_error, 'The endpoint answered ' || p_response_status), 500),
    locked_until = null
  where id = p_id;
  return case when delay is null then 'failed' else 'pending' end;
end
$$;
comment on function public.finish_webhook_delivery(uuid, integer, text) is
  'deliver-webhooks, service role only: a 2xx answer delivers; anything else (another status, a timeout, a refused address) is retried on schedule, and given up after 8 attempts.';
revoke execute on function public.finish_webhook_delivery(uuid, integer, text) from public, anon, authenticated;
grant execute on function public.finish_webhook_delivery(uuid, integer, text) to service_role;

create function private.dispatch_webhooks()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  due integer;
begin
  select count(*) into due from public.webhook_deliveries d
  where (d.status = 'pending' and d.next_attempt_at <= now()) or (d.status = 'sending' and d.locked_until < now());
  if due > 0 and not private.kick_webhooks() then
    raise exception 'Store project_url and service_role_key in Vault (vault.create_secret) so scheduled jobs can call edge functions';
  end if;
  return due;
end
$$;
comment on function private.dispatch_webhooks() is 'Scheduled every minute (deliver-webhooks): calls the deliverer when deliveries are due; returns how many.';
revoke execute on function private.dispatch_webhooks() from public, anon, authenticated, service_role;

select cron.schedule('deliver-webhooks', '* * * * *', 'select private.dispatch_webhooks()');
