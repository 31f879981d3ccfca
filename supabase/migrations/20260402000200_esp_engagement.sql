-- ESP engagement read-back (issue 25): during the screening period (7 days from the confirmation) deliver-esp reads
-- the opens and clicks of delivered subscribers from the providers whose API reports them per subscriber (beehiiv,
-- Mailchimp, MailerLite; Kit's does not), every 6 hours per subscriber, within the same per-key budgets as the
-- deliveries (which go first), and keeps them on esp_deliveries. The advertiser sees "Engaged" per subscriber, and
-- both sides an engagement rate per source (esp_engagement_figures, computed here). Nothing about money changes.

-- === Columns =============================================================================================

alter table public.esp_deliveries
  add column engaged boolean,
  add column opens integer,
  add column clicks integer,
  add column engagement_checked_at timestamp with time zone,
  add column engagement_locked_until timestamp with time zone,
  add column engagement_retry_at timestamp with time zone,
  add constraint esp_deliveries_opens_check check ((opens >= 0)),
  add constraint esp_deliveries_clicks_check check ((clicks >= 0));
comment on column public.esp_deliveries.engaged is 'Opened or clicked at least once, as the provider last told (beehiiv, Mailchimp, MailerLite); null until read.';
comment on column public.esp_deliveries.opens is 'Opens the provider counted (MailerLite); null where it reports rates only (beehiiv, Mailchimp).';
comment on column public.esp_deliveries.clicks is 'Clicks the provider counted (MailerLite); null where it reports rates only (beehiiv, Mailchimp).';
comment on column public.esp_deliveries.engagement_checked_at is 'When the provider last answered the engagement read-back for this subscriber.';
comment on column public.esp_deliveries.engagement_locked_until is 'Internal: a read-back in flight (2 minutes).';
comment on column public.esp_deliveries.engagement_retry_at is 'Internal: after a failed read-back, not before this (Retry-After, else 6 hours).';
create index esp_deliveries_engagement_due_idx on public.esp_deliveries using btree (delivered_at) where (status = 'delivered'::text);

-- === Functions ===========================================================================================

create function private.esp_reports_engagement(p_provider text)
 returns boolean
 language sql
 immutable
 set search_path to ''
as $function$
  select p_provider in ('beehiiv', 'mailchimp', 'mailerlite')
$function$;
comment on function private.esp_reports_engagement(p_provider text) is 'Internal: whether the provider''s API reports a subscriber''s opens and clicks (beehiiv, Mailchimp, MailerLite; not Kit).';
revoke execute on function private.esp_reports_engagement(p_provider text) from public;

create function private.esp_engagement_due(d public.esp_deliveries, p_provider text, p_confirmed_at timestamp with time zone)
 returns boolean
 language sql
 stable
 set search_path to ''
as $function$
  -- Delivered, readable, still in screening (7 days from the confirmation), 6 hours since the delivery or the last
  -- read, no read in flight and none waiting after a failure.
  select d.status = 'delivered' and private.esp_reports_engagement(p_provider)
    and p_confirmed_at > now() - interval '7 days'
    and coalesce(d.engagement_checked_at, d.delivered_at) <= now() - interval '6 hours'
    and (d.engagement_locked_until is null or d.engagement_locked_until < now())
    and (d.engagement_retry_at is null or d.engagement_retry_at <= now())
$function$;
comment on function private.esp_engagement_due(d public.esp_deliveries, p_provider text, p_confirmed_at timestamp with time zone) is 'Internal: whether a delivered subscriber''s engagement is due to be read: during screening (7 days from confirmation), every 6 hours from the delivery, for providers that report it.';
revoke execute on function private.esp_engagement_due(d public.esp_deliveries, p_provider text, p_confirmed_at timestamp with time zone) from public;

-- Mailchimp's budget is connections at once: engagement reads in flight count with deliveries in flight.
create or replace function public.claim_esp_deliveries(p_limit integer default 20)
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
      where c.key_fingerprint = k.fp
        and ((d.status = 'queued' and d.locked_until > now())
          or (d.status = 'delivered' and d.engagement_locked_until > now()));
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

create function public.claim_esp_engagement(p_limit integer default 20)
 returns table(id uuid, provider text, target_id text, api_key text, email text)
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
  -- The same lock, log and pauses as claim_esp_deliveries: a read-back spends the key's budget like a delivery.
  perform pg_advisory_xact_lock(hashtext('public.claim_esp_deliveries'));
  delete from private.esp_key_pauses p where p.paused_until <= now();
  for k in
    select c.key_fingerprint as fp, c.provider as prov, min(coalesce(d.engagement_checked_at, d.delivered_at)) as oldest
    from public.esp_deliveries d
    join public.esp_connections c on c.id = d.connection_id
    join public.newsletter_subscriptions s on s.id = d.subscription_id
    where d.status = 'delivered' and private.esp_engagement_due(d, c.provider, s.confirmed_at)
      and not exists (select 1 from private.esp_key_pauses p where p.key_fingerprint = c.key_fingerprint)
    group by c.key_fingerprint, c.provider
    order by oldest
  loop
    exit when wanted <= 0;
    select * into b from private.esp_budget(k.prov);
    if b.concurrent is not null then
      select count(*) into used from public.esp_deliveries d join public.esp_connections c on c.id = d.connection_id
      where c.key_fingerprint = k.fp
        and ((d.status = 'queued' and d.locked_until > now())
          or (d.status = 'delivered' and d.engagement_locked_until > now()));
      allowance := b.concurrent - used;
    else
      select coalesce(sum(l.requests), 0) into used from private.esp_request_log l
      where l.key_fingerprint = k.fp and l.sent_at > now() - make_interval(secs => b.window_seconds);
      -- One request per read-back.
      allowance := b.requests - used;
    end if;
    allowance := least(allowance, wanted);
    continue when allowance <= 0;
    return query
    with due as (
      select d.id from public.esp_deliveries d
      join public.esp_connections c on c.id = d.connection_id
      join public.newsletter_subscriptions s on s.id = d.subscription_id
      where c.key_fingerprint = k.fp and d.status = 'delivered' and private.esp_engagement_due(d, c.provider, s.confirmed_at)
      order by coalesce(d.engagement_checked_at, d.delivered_at)
      limit allowance
      for update of d skip locked
    ), claimed as (
      update public.esp_deliveries d set engagement_locked_until = now() + interval '2 minutes'
      from due where d.id = due.id
      returning d.id, d.connection_id, d.subscription_id
    )
    select cl.id, c.provider, c.target_id, v.decrypted_secret, s.email::text
    from claimed cl
    join public.esp_connections c on c.id = cl.connection_id
    join vault.decrypted_secrets v on v.id = c.secret_id
    join public.newsletter_subscriptions s on s.id = cl.subscription_id;
    get diagnostics taken = row_count;
    if taken > 0 then
      insert into private.esp_request_log (key_fingerprint, requests) values (k.fp, taken);
    end if;
    wanted := wanted - taken;
  end loop;
end
$function$;
comment on function public.claim_esp_engagement(p_limit integer) is 'deliver-esp, service role only: takes up to p_limit delivered subscribers whose engagement is due (private.esp_engagement_due) for 2 minutes, within each API key''s budget and never for a paused key, with the decrypted key. Run after the deliveries, so read-backs spend only what deliveries left.';
revoke execute on function public.claim_esp_engagement(p_limit integer) from anon, authenticated, public;

create function public.finish_esp_engagement(p_id uuid, p_engaged boolean, p_opens integer default null::integer, p_clicks integer default null::integer, p_response_status integer default null::integer, p_error text default null::text, p_retry_after_ms integer default null::integer)
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
  if not found or d.status <> 'delivered' or d.engagement_locked_until is null or d.engagement_locked_until < now() then
    return 'missing';
  end if;
  if p_error is null then
    -- Providers report totals so far: once engaged, a later answer saying less does not take it back.
    update public.esp_deliveries set
      engaged = coalesce(d.engaged, false) or coalesce(p_engaged, false),
      opens = greatest(d.opens, case when p_opens >= 0 then p_opens end),
      clicks = greatest(d.clicks, case when p_clicks >= 0 then p_clicks end),
      engagement_checked_at = now(), engagement_locked_until = null, engagement_retry_at = null
    where id = p_id;
    return 'read';
  end if;
  -- A failed read waits Retry-After, else the usual 6 hours; a 429 pauses the whole key.
  delay := least(coalesce(case when p_retry_after_ms is not null then make_interval(secs => greatest(p_retry_after_ms, 0) / 1000.0) end,
    interval '6 hours'), interval '1 day');
  if p_response_status = 429 then
    select c.key_fingerprint into fp from public.esp_connections c where c.id = d.connection_id;
    insert into private.esp_key_pauses as p (key_fingerprint, paused_until) values (fp, now() + delay)
    on conflict (key_fingerprint) do update set paused_until = greatest(p.paused_until, excluded.paused_until);
  end if;
  update public.esp_deliveries set engagement_locked_until = null, engagement_retry_at = now() + delay where id = p_id;
  return 'waiting';
end
$function$;
comment on function public.finish_esp_engagement(p_id uuid, p_engaged boolean, p_opens integer, p_clicks integer, p_response_status integer, p_error text, p_retry_after_ms integer) is 'deliver-esp, service role only: records one engagement read-back (engaged stays true once seen; opens and clicks never go down), or after a failure waits Retry-After or 6 hours (a 429 pauses the whole key).';
revoke execute on function public.finish_esp_engagement(p_id uuid, p_engaged boolean, p_opens integer, p_clicks integer, p_response_status integer, p_error text, p_retry_after_ms integer) from anon, authenticated, public;

create function public.esp_engagement_figures(p_campaign_id uuid default null::uuid, p_from date default null::date, p_to date default null::date)
 returns table(source_id uuid, source_name text, delivered bigint, checked bigint, engaged bigint, engagement_rate numeric)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  v record;
begin
  perform private.check_figures_range(p_from, p_to);
  perform private.check_figures_scope(p_campaign_id, null);
  select * into v from private.figures_viewer();
  return query
  select a.id, a.name,
    count(*)::bigint,
    count(*) filter (where d.engagement_checked_at is not null)::bigint,
    count(*) filter (where d.engaged)::bigint,
    (case when count(*) filter (where d.engagement_checked_at is not null) > 0
      then round(count(*) filter (where d.engaged) * 100.0 / count(*) filter (where d.engagement_checked_at is not null), 2)
    end)::numeric(5, 2)
  from public.esp_deliveries d
  join public.esp_connections c on c.id = d.connection_id
  join public.newsletter_subscriptions s on s.id = d.subscription_id
  join public.audience_sources a on a.id = s.audience_source_id
  where d.status = 'delivered' and private.esp_reports_engagement(c.provider)
    and (p_campaign_id is null or d.campaign_id = p_campaign_id)
    and (p_from is null or private.utc_day(s.confirmed_at) between p_from and p_to)
    and (v.sees_all or d.campaign_id = any (v.campaign_ids) or a.id = any (v.source_ids))
  group by a.id, a.name
  order by 5 desc, 3 desc, a.name;
end
$function$;
comment on function public.esp_engagement_figures(p_campaign_id uuid, p_from date, p_to date) is 'Engagement per source of subscribers delivered into an email tool that reports it (beehiiv, Mailchimp, MailerLite): delivered, read back, engaged, and the engagement rate (engaged per 100 read back; null before any read). For the caller''s campaigns (one with p_campaign_id), the caller''s sources, or (admins) any; by confirmation day when a range is given.';
revoke execute on function public.esp_engagement_figures(p_campaign_id uuid, p_from date, p_to date) from anon, public;

create function private.dispatch_esp_engagement()
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  due integer;
begin
  select count(*) into due from public.esp_deliveries d
  join public.esp_connections c on c.id = d.connection_id
  join public.newsletter_subscriptions s on s.id = d.subscription_id
  where d.status = 'delivered' and private.esp_engagement_due(d, c.provider, s.confirmed_at);
  if due > 0 and not private.kick_edge_function('deliver-esp', 120000) then
    raise exception 'Store project_url and service_role_key in Vault (vault.create_secret) so scheduled jobs can call edge functions';
  end if;
  return due;
end
$function$;
comment on function private.dispatch_esp_engagement() is 'Scheduled every 10 minutes (read-esp-engagement): calls deliver-esp when engagement read-backs are due; returns how many.';
revoke execute on function private.dispatch_esp_engagement() from public;

-- === Scheduled jobs (pg_cron) ============================================================================

select cron.schedule('read-esp-engagement', '*/10 * * * *', $job$select private.dispatch_esp_engagement()$job$);

-- The deliverer's fallback job checks every 10 seconds instead of each minute: a retry is due 15 s after an outage
-- and a rate limit's pause often ends within seconds, and the confirmation's own kick has gone by then. Checking is
-- one indexed count (esp_deliveries_due_idx); the function runs only when something is due.
select cron.schedule('deliver-esp', '10 seconds', $job$select private.dispatch_esp_deliveries()$job$);
comment on function private.dispatch_esp_deliveries() is 'Scheduled every 10 seconds (deliver-esp): calls the deliverer when ESP deliveries are due (retries after their backoff, keys whose pause ended); returns how many.';
