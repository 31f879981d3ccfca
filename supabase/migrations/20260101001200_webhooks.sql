-- Baseline, webhooks: advertisers' webhook endpoints and the deliveries sent to them.
--
-- One of the 13 files that replaced the 38 migrations of January 2026 (none had been applied to a hosted
-- database; docs/decisions.md), rendered from the schema they built with the changes listed in
-- supabase/tests/helpers/squash-changes.ts; supabase/tests/schema.test.ts proves everything else equal. The
-- history goes on in new migrations after these; the current state is read in supabase/schemas/.

-- === Tables ==============================================================================================

create table public.webhook_endpoints (
  id uuid default gen_random_uuid() not null,
  advertiser_id uuid not null,
  campaign_id uuid,
  url text not null,
  description text,
  events text[] default array['subscriber.confirmed'::text, 'subscriber.refunded'::text] not null,
  secret text not null,
  enabled boolean default true not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint webhook_endpoints_pkey primary key (id),
  constraint webhook_endpoints_description_check check ((char_length(description) <= 200)),
  constraint webhook_endpoints_events_check check (((cardinality(events) > 0) and (events <@ array['subscriber.confirmed'::text, 'subscriber.refunded'::text]))),
  constraint webhook_endpoints_advertiser_id_fkey foreign key (advertiser_id) references public.profiles(id) on delete cascade,
  constraint webhook_endpoints_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete cascade
);
alter table public.webhook_endpoints enable row level security;
create index webhook_endpoints_advertiser_idx on public.webhook_endpoints using btree (advertiser_id, created_at desc);
create index webhook_endpoints_campaign_idx on public.webhook_endpoints using btree (campaign_id) where (campaign_id is not null);
comment on table public.webhook_endpoints is 'Where an advertiser receives subscriber events: all their campaigns (campaign_id null) or one. The signing secret is shown once, when created or rotated; no API role can read it back.';
comment on column public.webhook_endpoints.secret is 'Standard Webhooks signing secret (whsec_ + base64 of 32 random bytes); only the service role reads it.';
revoke all on table public.webhook_endpoints from anon, authenticated;
revoke truncate, references, trigger on table public.webhook_endpoints from service_role;
grant delete on table public.webhook_endpoints to authenticated;
grant select (id, advertiser_id, campaign_id, url, description, events, enabled, created_at, updated_at) on public.webhook_endpoints to authenticated;
grant update (url, description, events, enabled) on public.webhook_endpoints to authenticated;

create table public.webhook_deliveries (
  id uuid default gen_random_uuid() not null,
  endpoint_id uuid not null,
  advertiser_id uuid not null,
  message_id text default ('msg_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)) not null,
  event_type text not null,
  subscription_id uuid,
  payload jsonb not null,
  status text default 'pending'::text not null,
  attempts integer default 0 not null,
  next_attempt_at timestamp with time zone default now() not null,
  locked_until timestamp with time zone,
  response_status integer,
  last_error text,
  delivered_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint webhook_deliveries_pkey primary key (id),
  constraint webhook_deliveries_endpoint_id_message_id_key unique (endpoint_id, message_id),
  constraint webhook_deliveries_event_type_check check ((event_type = any (array['subscriber.confirmed'::text, 'subscriber.refunded'::text, 'webhook.test'::text]))),
  constraint webhook_deliveries_status_check check ((status = any (array['pending'::text, 'sending'::text, 'succeeded'::text, 'failed'::text]))),
  constraint webhook_deliveries_advertiser_id_fkey foreign key (advertiser_id) references public.profiles(id) on delete cascade,
  constraint webhook_deliveries_endpoint_id_fkey foreign key (endpoint_id) references public.webhook_endpoints(id) on delete cascade,
  constraint webhook_deliveries_subscription_id_fkey foreign key (subscription_id) references public.newsletter_subscriptions(id) on delete set null
);
alter table public.webhook_deliveries enable row level security;
create index webhook_deliveries_advertiser_idx on public.webhook_deliveries using btree (advertiser_id, created_at desc);
create index webhook_deliveries_due_idx on public.webhook_deliveries using btree (next_attempt_at) where (status = any (array['pending'::text, 'sending'::text]));
create index webhook_deliveries_endpoint_idx on public.webhook_deliveries using btree (endpoint_id, created_at desc);
create index webhook_deliveries_subscription_idx on public.webhook_deliveries using btree (subscription_id) where (subscription_id is not null);
comment on table public.webhook_deliveries is 'The delivery log: one row per event and endpoint, with its status, attempts, the last response code or error, and when to try again.';
revoke all on table public.webhook_deliveries from anon, authenticated;
revoke truncate, references, trigger on table public.webhook_deliveries from service_role;
grant select on table public.webhook_deliveries to authenticated;

-- === Functions ===========================================================================================

create function private.check_webhook_endpoint()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
comment on function private.check_webhook_endpoint() is 'Internal trigger: refuses URLs that may not receive webhooks, other people''s campaigns and owner changes.';
revoke execute on function private.check_webhook_endpoint() from public;

create function public.claim_webhook_deliveries(p_limit integer default 20)
 returns table(id uuid, message_id text, event_type text, payload jsonb, url text, secret text, attempts integer)
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
comment on function public.claim_webhook_deliveries(p_limit integer) is 'deliver-webhooks, service role only: takes up to p_limit due deliveries for 2 minutes, with the endpoint URL and secret to sign with.';
revoke execute on function public.claim_webhook_deliveries(p_limit integer) from anon, authenticated, public;

create function public.create_webhook_endpoint(p_url text, p_campaign_id uuid default null::uuid, p_description text default null::text)
 returns table(id uuid, secret text)
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  me uuid := (select auth.uid());
begin
  perform private.require_live_session();
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
$function$;
comment on function public.create_webhook_endpoint(p_url text, p_campaign_id uuid, p_description text) is 'An advertiser adds an endpoint (all campaigns, or one); answers its id and signing secret — the only time the secret is shown.';
revoke execute on function public.create_webhook_endpoint(p_url text, p_campaign_id uuid, p_description text) from anon, public;

create function private.dispatch_webhooks()
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  due integer;
begin
  select count(*) into due from public.webhook_deliveries d
  where (d.status = 'pending' and d.next_attempt_at <= now()) or (d.status = 'sending' and d.locked_until < now());
  if due > 0 and not private.kick_edge_function('deliver-webhooks', 120000) then
    raise exception 'Store project_url and service_role_key in Vault (vault.create_secret) so scheduled jobs can call edge functions';
  end if;
  return due;
end
$function$;
comment on function private.dispatch_webhooks() is 'Scheduled every minute (deliver-webhooks): calls the deliverer when deliveries are due; returns how many.';
revoke execute on function private.dispatch_webhooks() from public;

create function public.finish_webhook_delivery(p_id uuid, p_response_status integer, p_error text default null::text)
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
comment on function public.finish_webhook_delivery(p_id uuid, p_response_status integer, p_error text) is 'deliver-webhooks, service role only: a 2xx answer delivers; anything else (another status, a timeout, a refused address) is retried on schedule, and given up after 8 attempts.';
revoke execute on function public.finish_webhook_delivery(p_id uuid, p_response_status integer, p_error text) from anon, authenticated, public;

create function private.new_webhook_secret()
 returns text
 language sql
 set search_path to ''
as $function$ select 'whsec_' || encode(extensions.gen_random_bytes(32), 'base64') $function$;
comment on function private.new_webhook_secret() is 'Internal: a Standard Webhooks secret (whsec_ + base64 of 32 random bytes).';
revoke execute on function private.new_webhook_secret() from public;

create function public.resend_webhook_delivery(p_delivery_id uuid)
 returns uuid
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
  if private.hit_rate_limit('webhook-resend:' || d.advertiser_id, 10, interval '1 minute') > 0 then
    raise exception 'You resent 10 deliveries in the last minute; wait a moment' using errcode = '22023';
  end if;
  -- Same webhook-id: a receiver that already processed it can tell.
  update public.webhook_deliveries set status = 'pending', attempts = 0, next_attempt_at = now(), locked_until = null
    where id = d.id;
  perform private.kick_edge_function('deliver-webhooks', 120000);
  return d.id;
end
$function$;
comment on function public.resend_webhook_delivery(p_delivery_id uuid) is 'Advertisers send a finished delivery again (same webhook-id), at most 10 a minute each.';
revoke execute on function public.resend_webhook_delivery(p_delivery_id uuid) from anon, public;

create function public.rotate_webhook_secret(p_endpoint_id uuid)
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  fresh text := private.new_webhook_secret();
begin
  perform private.require_live_session();
  update public.webhook_endpoints set secret = fresh
    where id = p_endpoint_id and advertiser_id = (select auth.uid());
  if not found then
    raise exception 'You can only change your own webhook endpoints' using errcode = '42501';
  end if;
  return fresh;
end
$function$;
comment on function public.rotate_webhook_secret(p_endpoint_id uuid) is 'Replaces an endpoint''s signing secret (a leaked one, or a lost one) and shows the new one once.';
revoke execute on function public.rotate_webhook_secret(p_endpoint_id uuid) from anon, public;

create function public.send_test_webhook(p_endpoint_id uuid)
 returns uuid
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
  perform private.kick_edge_function('deliver-webhooks', 120000);
  return delivery;
end
$function$;
comment on function public.send_test_webhook(p_endpoint_id uuid) is 'The test-event button: queues a signed webhook.test event to one of the caller''s endpoints (5 a minute).';
revoke execute on function public.send_test_webhook(p_endpoint_id uuid) from anon, public;

create function private.subscription_webhooks()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if old.confirmed_at is null and new.confirmed_at is not null then
    perform private.enqueue_subscriber_event('subscriber.confirmed', new);
  elsif old.counted and not new.counted and new.not_counted_reason = 'refunded' then
    perform private.enqueue_subscriber_event('subscriber.refunded', new);
  end if;
  return null;
end
$function$;
comment on function private.subscription_webhooks() is 'Internal trigger: a confirmation or a refund queues its webhook in the same transaction.';
revoke execute on function private.subscription_webhooks() from public;

create function private.webhook_retry_delay(p_attempts integer)
 returns interval
 language sql
 immutable
 set search_path to ''
as $function$
  select (array['1 minute', '5 minutes', '30 minutes', '2 hours', '5 hours', '10 hours', '10 hours']::interval[])[p_attempts]
$function$;
comment on function private.webhook_retry_delay(p_attempts integer) is 'Internal: the wait after the n-th failed attempt (null after the 8th: given up). About 28 hours in all.';
revoke execute on function private.webhook_retry_delay(p_attempts integer) from public;

create function private.webhook_url_problem(p_url text)
 returns text
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
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
$function$;
comment on function private.webhook_url_problem(p_url text) is 'Internal: why a URL cannot receive webhooks (not https, credentials, localhost, a literal private/loopback/link-local address, a private-network name), or null.';
revoke execute on function private.webhook_url_problem(p_url text) from public;

-- === Triggers ============================================================================================

create trigger newsletter_subscriptions_webhooks after update on public.newsletter_subscriptions for each row execute function private.subscription_webhooks();

create trigger webhook_deliveries_set_updated_at before update on public.webhook_deliveries for each row execute function public.set_updated_at();

create trigger webhook_endpoints_check before insert or update on public.webhook_endpoints for each row execute function private.check_webhook_endpoint();

create trigger webhook_endpoints_set_updated_at before update on public.webhook_endpoints for each row execute function public.set_updated_at();

-- === Row-level security policies =========================================================================

create policy "Admins can read every webhook delivery" on public.webhook_deliveries
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Advertisers can read deliveries to their endpoints" on public.webhook_deliveries
  for select to authenticated
  using ((( select auth.uid() as uid) = advertiser_id));

create policy "Admins can read every webhook endpoint" on public.webhook_endpoints
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Advertisers can delete their own webhook endpoints" on public.webhook_endpoints
  for delete to authenticated
  using ((( select auth.uid() as uid) = advertiser_id));
create policy "Advertisers can edit their own webhook endpoints" on public.webhook_endpoints
  for update to authenticated
  using ((( select auth.uid() as uid) = advertiser_id))
  with check ((( select auth.uid() as uid) = advertiser_id));
create policy "Advertisers can read their own webhook endpoints" on public.webhook_endpoints
  for select to authenticated
  using ((( select auth.uid() as uid) = advertiser_id));
create policy "Webhook endpoints are changed only in a live session" on public.webhook_endpoints as restrictive
  for update to authenticated
  using (( select public.session_is_live() as session_is_live))
  with check (( select public.session_is_live() as session_is_live));
create policy "Webhook endpoints are deleted only in a live session" on public.webhook_endpoints as restrictive
  for delete to authenticated
  using (( select public.session_is_live() as session_is_live));

-- === Scheduled jobs (pg_cron) ============================================================================

select cron.schedule('deliver-webhooks', '* * * * *', $job$select private.dispatch_webhooks()$job$);
