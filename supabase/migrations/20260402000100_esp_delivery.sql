-- ESP delivery (issue 25): an advertiser connects a campaign to beehiiv, Kit, Mailchimp or MailerLite, and every
-- confirmed subscriber of that campaign is delivered into the chosen list once, already confirmed.
--
-- - esp_connections: one per campaign (provider, list, the Vault secret holding the API key). Owners and admins
--   read it; nobody reads the key back: it lives in vault.secrets, which no API role can reach, and only
--   claim_esp_deliveries (service role) decrypts it, for the deliver-esp edge function.
-- - esp_deliveries: the queue, one row per confirmed subscription and connection. A confirmation (trigger) or a
--   backfill queues it and kicks deliver-esp through pg_net (like deliver-webhooks); the deliver-esp job kicks it
--   every minute while anything is due. Claims respect each provider's published budget per API key
--   (private.esp_request_log, private.esp_key_pauses) so a backfill never trips the provider's rate limit, and a
--   429's Retry-After pauses the whole key.
-- - Rate limits and outages (429, 5xx, no answer) are retried with backoff for a day, then failed; any other 4xx
--   fails at once with the provider's message; the owner can retry a failed delivery (retry_esp_delivery).

-- === Vocabulary ==========================================================================================

create type public.esp_provider as enum ('beehiiv', 'kit', 'mailchimp', 'mailerlite');
comment on type public.esp_provider is 'The email service providers a campaign can deliver its subscribers into.';
create type public.esp_delivery_status as enum ('queued', 'delivered', 'failed');
comment on type public.esp_delivery_status is 'Where a subscriber''s delivery into the advertiser''s email tool stands.';

-- === Tables ==============================================================================================

create table public.esp_connections (
  id uuid default gen_random_uuid() not null,
  campaign_id uuid not null,
  advertiser_id uuid not null,
  provider text not null,
  target_id text not null,
  target_name text not null,
  secret_id uuid not null,
  key_fingerprint text not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint esp_connections_pkey primary key (id),
  constraint esp_connections_campaign_id_key unique (campaign_id),
  constraint esp_connections_provider_check check ((provider = any ((enum_range(null::public.esp_provider))::text[]))),
  constraint esp_connections_target_id_check check (((char_length(target_id) >= 1) and (char_length(target_id) <= 200))),
  constraint esp_connections_target_name_check check (((char_length(target_name) >= 1) and (char_length(target_name) <= 200))),
  constraint esp_connections_advertiser_id_fkey foreign key (advertiser_id) references public.profiles(id) on delete cascade,
  constraint esp_connections_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete cascade
);
alter table public.esp_connections enable row level security;
create index esp_connections_advertiser_idx on public.esp_connections using btree (advertiser_id);
create index esp_connections_fingerprint_idx on public.esp_connections using btree (key_fingerprint);
comment on table public.esp_connections is 'A campaign''s email tool: provider and list its confirmed subscribers are delivered into. The API key is in Vault (secret_id); no API role can read it back.';
comment on column public.esp_connections.secret_id is 'vault.secrets id of the API key; only claim_esp_deliveries decrypts it.';
comment on column public.esp_connections.key_fingerprint is 'sha256 of the API key: deliveries through one key share the provider''s rate budget (Kit per key, beehiiv per organisation, approximated per key).';
revoke all on table public.esp_connections from anon, authenticated;
revoke truncate, references, trigger on table public.esp_connections from service_role;
grant select (id, campaign_id, advertiser_id, provider, target_id, target_name, created_at, updated_at) on public.esp_connections to authenticated;

create table public.esp_deliveries (
  id uuid default gen_random_uuid() not null,
  connection_id uuid not null,
  subscription_id uuid not null,
  campaign_id uuid not null,
  advertiser_id uuid not null,
  status text default 'queued'::text not null,
  attempts integer default 0 not null,
  queued_at timestamp with time zone default now() not null,
  next_attempt_at timestamp with time zone default now() not null,
  locked_until timestamp with time zone,
  response_status integer,
  last_error text,
  remote_id text,
  delivered_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint esp_deliveries_pkey primary key (id),
  constraint esp_deliveries_connection_id_subscription_id_key unique (connection_id, subscription_id),
  constraint esp_deliveries_status_check check ((status = any ((enum_range(null::public.esp_delivery_status))::text[]))),
  constraint esp_deliveries_attempts_check check ((attempts >= 0)),
  constraint esp_deliveries_advertiser_id_fkey foreign key (advertiser_id) references public.profiles(id) on delete cascade,
  constraint esp_deliveries_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete cascade,
  constraint esp_deliveries_connection_id_fkey foreign key (connection_id) references public.esp_connections(id) on delete cascade,
  constraint esp_deliveries_subscription_id_fkey foreign key (subscription_id) references public.newsletter_subscriptions(id) on delete cascade
);
alter table public.esp_deliveries enable row level security;
create index esp_deliveries_advertiser_idx on public.esp_deliveries using btree (advertiser_id, created_at desc);
create index esp_deliveries_campaign_idx on public.esp_deliveries using btree (campaign_id);
create index esp_deliveries_due_idx on public.esp_deliveries using btree (next_attempt_at) where (status = 'queued'::text);
create index esp_deliveries_subscription_idx on public.esp_deliveries using btree (subscription_id);
comment on table public.esp_deliveries is 'The ESP delivery queue and log: one row per confirmed subscriber and connection, with its state, attempts, the provider''s last message and the id it gave the subscriber.';
comment on column public.esp_deliveries.last_error is 'The provider''s own message for the last failed attempt (shown to the advertiser).';
revoke all on table public.esp_deliveries from anon, authenticated;
revoke truncate, references, trigger on table public.esp_deliveries from service_role;
grant select on table public.esp_deliveries to authenticated;

create table private.esp_request_log (
  key_fingerprint text not null,
  sent_at timestamp with time zone default now() not null,
  requests integer not null
);
create index esp_request_log_key_idx on private.esp_request_log using btree (key_fingerprint, sent_at);
comment on table private.esp_request_log is 'Internal: requests claimed per API key in the last minutes, so claims stay within the provider''s budget.';

create table private.esp_key_pauses (
  key_fingerprint text not null,
  paused_until timestamp with time zone not null,
  constraint esp_key_pauses_pkey primary key (key_fingerprint)
);
comment on table private.esp_key_pauses is 'Internal: an API key the provider asked us to leave alone until paused_until (its Retry-After).';

-- === Functions ===========================================================================================

create function private.esp_budget(p_provider text, out requests integer, out window_seconds integer, out per_delivery integer, out concurrent integer)
 language sql
 immutable
 set search_path to ''
as $function$
  select case p_provider when 'beehiiv' then 180 when 'kit' then 120 when 'mailerlite' then 120 else null end,
    60,
    case p_provider when 'kit' then 2 when 'mailchimp' then 2 else 1 end,
    case p_provider when 'mailchimp' then 10 else null end
$function$;
comment on function private.esp_budget(p_provider text) is 'Internal: each provider''s published budget (supabase/functions/_shared/esp/types.ts ESP_RATE_BUDGETS): Kit 120 requests/60 s per key, beehiiv 180/min per organisation, MailerLite 120/min, Mailchimp 10 connections at once; and how many requests one delivery makes (Kit and Mailchimp 2).';
revoke execute on function private.esp_budget(p_provider text) from public;


create function private.esp_retry_delay(p_attempts integer)
 returns interval
 language sql
 immutable
 set search_path to ''
as $function$
  select coalesce((array['15 seconds', '1 minute', '5 minutes', '15 minutes', '30 minutes', '1 hour', '2 hours',
    '4 hours']::interval[])[greatest(p_attempts, 1)], interval '8 hours')
$function$;
comment on function private.esp_retry_delay(p_attempts integer) is 'Internal: the wait after the n-th failed attempt at an ESP delivery (15 s, 1 min, 5 min … then every 8 hours); a delivery still failing a day after it was queued is given up.';
revoke execute on function private.esp_retry_delay(p_attempts integer) from public;

create function private.esp_key_problem(p_provider text, p_api_key text)
 returns text
 language sql
 immutable
 set search_path to ''
as $function$
  select case
    when p_provider is null or not (p_provider = any ((enum_range(null::public.esp_provider))::text[]))
      then 'Choose beehiiv, Kit, Mailchimp or MailerLite'
    when p_api_key is null or trim(p_api_key) = '' then 'Enter the API key from your email tool'
    when char_length(trim(p_api_key)) > 500 then 'That API key is too long; paste only the key'
    when trim(p_api_key) ~ '\s' then 'An API key has no spaces; paste only the key'
    when p_provider = 'mailchimp' and trim(p_api_key) !~ '-[a-z]+[0-9]+$'
      then 'A Mailchimp API key ends in its data centre, such as -us21'
  end
$function$;
comment on function private.esp_key_problem(p_provider text, p_api_key text) is 'Internal: why a provider and API key cannot be saved (the same rules as supabase/functions/_shared/rules/esp-connection.ts), or null.';
revoke execute on function private.esp_key_problem(p_provider text, p_api_key text) from public;

create function public.save_esp_connection(p_campaign_id uuid, p_provider text, p_api_key text, p_target_id text, p_target_name text default null::text, p_backfill boolean default false)
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  me uuid := (select auth.uid());
  owner uuid;
  problem text := private.esp_key_problem(p_provider, p_api_key);
  key text := trim(p_api_key);
  target text := trim(coalesce(p_target_id, ''));
  label text := left(coalesce(nullif(trim(p_target_name), ''), trim(coalesce(p_target_id, ''))), 200);
  existing public.esp_connections;
  connection uuid;
  queued integer := 0;
begin
  perform private.require_live_session();
  select c.advertiser_id into owner from public.campaigns c where c.id = p_campaign_id;
  if me is null or owner is distinct from me then
    raise exception 'You can only connect your own newsletters' using errcode = '42501';
  end if;
  if problem is not null then
    raise exception '%', problem using errcode = '22023';
  end if;
  if target = '' then
    raise exception 'Choose the list your subscribers should go to' using errcode = '22023';
  end if;
  if char_length(target) > 200 then
    raise exception 'That list id is too long; load your lists and choose one again' using errcode = '22023';
  end if;
  if private.hit_rate_limit('esp-connection:' || me, 30, interval '1 hour') > 0 then
    raise exception 'You changed email tool connections 30 times in the last hour; wait a while' using errcode = '22023';
  end if;
  select * into existing from public.esp_connections e where e.campaign_id = p_campaign_id for update;
  if found then
    -- The old key is replaced in place: one secret per connection, never an orphan left in Vault.
    perform vault.update_secret(existing.secret_id, key);
    if existing.provider <> p_provider or existing.target_id <> target then
      -- Another list: what went to the old one says nothing about the new one.
      delete from public.esp_deliveries d where d.connection_id = existing.id;
    end if;
    update public.esp_connections set provider = p_provider, target_id = target, target_name = label,
      key_fingerprint = encode(extensions.digest(key, 'sha256'), 'hex')
    where id = existing.id;
    connection := existing.id;
  else
    insert into public.esp_connections (campaign_id, advertiser_id, provider, target_id, target_name, secret_id, key_fingerprint)
    values (p_campaign_id, me, p_provider, target, label,
      vault.create_secret(key, null, 'ESP API key of campaign ' || p_campaign_id),
      encode(extensions.digest(key, 'sha256'), 'hex'))
    returning id into connection;
  end if;
  if coalesce(p_backfill, false) then
    insert into public.esp_deliveries (connection_id, subscription_id, campaign_id, advertiser_id)
    select connection, s.id, s.campaign_id, me from public.newsletter_subscriptions s
    where s.campaign_id = p_campaign_id and s.confirmed_at is not null
    on conflict (connection_id, subscription_id) do nothing;
    get diagnostics queued = row_count;
    if queued > 0 then
      perform private.kick_edge_function('deliver-esp', 120000);
    end if;
  end if;
  return queued;
end
$function$;
comment on function public.save_esp_connection(p_campaign_id uuid, p_provider text, p_api_key text, p_target_id text, p_target_name text, p_backfill boolean) is 'The campaign''s owner connects it to an email tool (or changes provider, list or key): the key goes to Vault (vault.create_secret, or update_secret of the connection''s own secret) and is never readable again. With p_backfill, the subscribers who already confirmed are queued too; answers how many were queued.';
revoke execute on function public.save_esp_connection(p_campaign_id uuid, p_provider text, p_api_key text, p_target_id text, p_target_name text, p_backfill boolean) from anon, public;

create function public.disconnect_esp(p_campaign_id uuid)
 returns boolean
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  me uuid := (select auth.uid());
  old_secret uuid;
begin
  perform private.require_live_session();
  if me is null or not exists (select 1 from public.campaigns c where c.id = p_campaign_id and c.advertiser_id = me) then
    raise exception 'You can only disconnect your own newsletters' using errcode = '42501';
  end if;
  delete from public.esp_connections e where e.campaign_id = p_campaign_id returning e.secret_id into old_secret;
  if old_secret is null then
    return false;
  end if;
  delete from vault.secrets v where v.id = old_secret;
  return true;
end
$function$;
comment on function public.disconnect_esp(p_campaign_id uuid) is 'The owner disconnects a campaign''s email tool: the connection, its queue and its key in Vault are deleted. Answers false when nothing was connected.';
revoke execute on function public.disconnect_esp(p_campaign_id uuid) from anon, public;

create function public.retry_esp_delivery(p_delivery_id uuid)
 returns uuid
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  d public.esp_deliveries;
begin
  perform private.require_live_session();
  select * into d from public.esp_deliveries e where e.id = p_delivery_id and e.advertiser_id = (select auth.uid()) for update;
  if not found then
    raise exception 'You can only retry deliveries of your own newsletters' using errcode = '42501';
  end if;
  if d.status = 'delivered' then
    raise exception 'This subscriber is already in your email tool' using errcode = '22023';
  end if;
  if d.status = 'queued' then
    raise exception 'This subscriber is already waiting to be sent' using errcode = '22023';
  end if;
  if private.hit_rate_limit('esp-retry:' || d.advertiser_id, 30, interval '1 minute') > 0 then
    raise exception 'You retried 30 deliveries in the last minute; wait a moment' using errcode = '22023';
  end if;
  update public.esp_deliveries set status = 'queued', attempts = 0, queued_at = now(), next_attempt_at = now(),
    locked_until = null, response_status = null, last_error = null
  where id = d.id;
  perform private.kick_edge_function('deliver-esp', 120000);
  return d.id;
end
$function$;
comment on function public.retry_esp_delivery(p_delivery_id uuid) is 'The owner sends a failed delivery again (after fixing the key or list, say): queued now, with a fresh day of retries; 30 a minute.';
revoke execute on function public.retry_esp_delivery(p_delivery_id uuid) from anon, public;

create function public.claim_esp_deliveries(p_limit integer default 20)
 returns table(id uuid, provider text, target_id text, api_key text, key_fingerprint text, email text, confirmed_at timestamp with time zone, confirm_ip text, source_name text, campaign_name text, attempts integer)
 language plpgsql
 security definer
 set search_path to ''
as $function$
#variable_conflict use_column
declare
  wanted integer := least(greatest(coalesce(p_limit, 20), 1), 100);
  k record;
  b record;
  used integer;
  allowance integer;
  taken integer;
begin
  -- One claimer at a time: two claims must not both spend what is left of a key's budget.
  perform pg_advisory_xact_lock(hashtext('public.claim_esp_deliveries'));
  delete from private.esp_request_log l where l.sent_at < now() - interval '5 minutes';
  delete from private.esp_key_pauses p where p.paused_until <= now();
  for k in
    select c.key_fingerprint as fp, c.provider as prov, min(d.next_attempt_at) as oldest
    from public.esp_deliveries d join public.esp_connections c on c.id = d.connection_id
    where d.status = 'queued' and d.next_attempt_at <= now() and (d.locked_until is null or d.locked_until < now())
      and not exists (select 1 from private.esp_key_pauses p where p.key_fingerprint = c.key_fingerprint)
    group by c.key_fingerprint, c.provider
    order by oldest
  loop
    exit when wanted <= 0;
    select * into b from private.esp_budget(k.prov);
    if b.concurrent is not null then
      select count(*) into used from public.esp_deliveries d join public.esp_connections c on c.id = d.connection_id
      where c.key_fingerprint = k.fp and d.status = 'queued' and d.locked_until > now();
      allowance := b.concurrent - used;
    else
      select coalesce(sum(l.requests), 0) into used from private.esp_request_log l
      where l.key_fingerprint = k.fp and l.sent_at > now() - make_interval(secs => b.window_seconds);
      allowance := (b.requests - used) / b.per_delivery;
    end if;
    allowance := least(allowance, wanted);
    continue when allowance <= 0;
    return query
    with due as (
      select d.id from public.esp_deliveries d join public.esp_connections c on c.id = d.connection_id
      where c.key_fingerprint = k.fp and d.status = 'queued' and d.next_attempt_at <= now()
        and (d.locked_until is null or d.locked_until < now())
      order by d.next_attempt_at
      limit allowance
      for update of d skip locked
    ), claimed as (
      update public.esp_deliveries d
      set attempts = d.attempts + 1, locked_until = now() + interval '2 minutes'
      from due where d.id = due.id
      returning d.id, d.connection_id, d.subscription_id, d.attempts
    )
    select cl.id, c.provider, c.target_id, v.decrypted_secret, c.key_fingerprint, s.email::text, s.confirmed_at,
      s.confirm_ip, coalesce(a.name, 'Growletter'), g.name, cl.attempts
    from claimed cl
    join public.esp_connections c on c.id = cl.connection_id
    join vault.decrypted_secrets v on v.id = c.secret_id
    join public.newsletter_subscriptions s on s.id = cl.subscription_id
    join public.campaigns g on g.id = s.campaign_id
    left join public.audience_sources a on a.id = s.audience_source_id;
    get diagnostics taken = row_count;
    if taken > 0 then
      insert into private.esp_request_log (key_fingerprint, requests) values (k.fp, taken * b.per_delivery);
    end if;
    wanted := wanted - taken;
  end loop;
end
$function$;
comment on function public.claim_esp_deliveries(p_limit integer) is 'deliver-esp, service role only: takes up to p_limit due deliveries for 2 minutes, within each API key''s budget (private.esp_budget) and never for a key the provider paused, with the decrypted key and the consent evidence to send. The only path by which a key leaves Vault.';
revoke execute on function public.claim_esp_deliveries(p_limit integer) from anon, authenticated, public;

create function public.finish_esp_delivery(p_id uuid, p_remote_id text, p_response_status integer, p_error text default null::text, p_retryable boolean default false, p_retry_after_ms integer default null::integer)
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  d public.esp_deliveries;
  fp text;
  delay interval;
begin
  select * into d from public.esp_deliveries e where e.id = p_id for update;
  if not found or d.status <> 'queued' or d.locked_until is null then
    return coalesce(d.status, 'missing');
  end if;
  if p_error is null then
    update public.esp_deliveries set status = 'delivered', remote_id = left(p_remote_id, 200),
      response_status = p_response_status, last_error = null, delivered_at = now(), locked_until = null
    where id = p_id;
    return 'delivered';
  end if;
  if not coalesce(p_retryable, false) then
    update public.esp_deliveries set status = 'failed', response_status = p_response_status,
      last_error = left(p_error, 500), locked_until = null
    where id = p_id;
    return 'failed';
  end if;
  delay := least(coalesce(case when p_retry_after_ms is not null then make_interval(secs => greatest(p_retry_after_ms, 0) / 1000.0) end,
    private.esp_retry_delay(d.attempts)), interval '1 day');
  if p_response_status = 429 then
    -- A rate limit is the key's, not this subscriber's: every delivery through the key waits.
    select c.key_fingerprint into fp from public.esp_connections c where c.id = d.connection_id;
    insert into private.esp_key_pauses as p (key_fingerprint, paused_until) values (fp, now() + delay)
    on conflict (key_fingerprint) do update set paused_until = greatest(p.paused_until, excluded.paused_until);
  end if;
  if now() + delay > d.queued_at + interval '1 day' then
    update public.esp_deliveries set status = 'failed', response_status = p_response_status,
      last_error = left('Still failing after a day: ' || p_error, 500), locked_until = null
    where id = p_id;
    return 'failed';
  end if;
  update public.esp_deliveries set next_attempt_at = now() + delay, response_status = p_response_status,
    last_error = left(p_error, 500), locked_until = null
  where id = p_id;
  return 'queued';
end
$function$;
comment on function public.finish_esp_delivery(p_id uuid, p_remote_id text, p_response_status integer, p_error text, p_retryable boolean, p_retry_after_ms integer) is 'deliver-esp, service role only: records one attempt. Success delivers; a retryable failure (429, 5xx, no answer) waits Retry-After or the backoff (a 429 pauses the whole key), and fails once a day has passed since it was queued; any other failure is final with the provider''s message.';
revoke execute on function public.finish_esp_delivery(p_id uuid, p_remote_id text, p_response_status integer, p_error text, p_retryable boolean, p_retry_after_ms integer) from anon, authenticated, public;

create function private.queue_esp_delivery()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if new.confirmed_at is not null and (tg_op = 'INSERT' or old.confirmed_at is null) then
    insert into public.esp_deliveries (connection_id, subscription_id, campaign_id, advertiser_id)
    select c.id, new.id, c.campaign_id, c.advertiser_id from public.esp_connections c where c.campaign_id = new.campaign_id
    on conflict (connection_id, subscription_id) do nothing;
    if found then
      perform private.kick_edge_function('deliver-esp', 120000);
    end if;
  end if;
  return null;
end
$function$;
comment on function private.queue_esp_delivery() is 'Internal trigger: a confirmation (paid or not) of a connected campaign queues its delivery in the same transaction and asks deliver-esp to run.';
revoke execute on function private.queue_esp_delivery() from public;

create function private.dispatch_esp_deliveries()
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  due integer;
begin
  select count(*) into due from public.esp_deliveries d
  where d.status = 'queued' and d.next_attempt_at <= now() and (d.locked_until is null or d.locked_until < now());
  if due > 0 and not private.kick_edge_function('deliver-esp', 120000) then
    raise exception 'Store project_url and service_role_key in Vault (vault.create_secret) so scheduled jobs can call edge functions';
  end if;
  return due;
end
$function$;
comment on function private.dispatch_esp_deliveries() is 'Scheduled every minute (deliver-esp): calls the deliverer when ESP deliveries are due; returns how many.';
revoke execute on function private.dispatch_esp_deliveries() from public;

-- === Triggers ============================================================================================

create trigger newsletter_subscriptions_esp_delivery after insert or update on public.newsletter_subscriptions for each row execute function private.queue_esp_delivery();

create trigger esp_connections_set_updated_at before update on public.esp_connections for each row execute function public.set_updated_at();

create trigger esp_deliveries_set_updated_at before update on public.esp_deliveries for each row execute function public.set_updated_at();

-- === Row-level security policies =========================================================================

create policy "Admins can read every ESP connection" on public.esp_connections
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Advertisers can read their own ESP connections" on public.esp_connections
  for select to authenticated
  using ((( select auth.uid() as uid) = advertiser_id));

create policy "Admins can read every ESP delivery" on public.esp_deliveries
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Advertisers can read deliveries of their own newsletters" on public.esp_deliveries
  for select to authenticated
  using ((( select auth.uid() as uid) = advertiser_id));

-- === Scheduled jobs (pg_cron) ============================================================================

select cron.schedule('deliver-esp', '* * * * *', $job$select private.dispatch_esp_deliveries()$job$);
