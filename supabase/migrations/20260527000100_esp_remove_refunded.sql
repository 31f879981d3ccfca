-- Refunded readers out of the advertiser's email tool (issue 38): beside a refunded reader that was delivered, the
-- campaign's advertiser asks Growletter to remove them from the tool (remove_refunded_from_esp). The removal is
-- queued on the reader's esp_deliveries row and performed by deliver-esp with the key from Vault (claim_esp_removals
-- is the only path by which the key leaves Vault for it), each provider as its API documents it: beehiiv deletes the
-- subscription, Kit unsubscribes the subscriber, Mailchimp marks the audience member unsubscribed, MailerLite takes
-- the subscriber out of the group. finish_esp_removal records the outcome: removed (with the time), retried after
-- 429/5xx/no answer for a day, or failed with the provider's own message, which the advertiser reads.

create type public.esp_removal_status as enum ('queued', 'removed', 'failed');
comment on type public.esp_removal_status is 'Where a refunded reader''s removal from the advertiser''s email tool stands.';

alter table public.esp_deliveries
  add column removal_status text,
  add column removal_requested_at timestamp with time zone,
  add column removal_attempts integer default 0 not null,
  add column removal_next_attempt_at timestamp with time zone,
  add column removal_locked_until timestamp with time zone,
  add column removal_error text,
  add column removed_at timestamp with time zone,
  add constraint esp_deliveries_removal_status_check check ((removal_status = any ((enum_range(null::public.esp_removal_status))::text[]))),
  add constraint esp_deliveries_removal_attempts_check check ((removal_attempts >= 0));
comment on column public.esp_deliveries.removal_status is 'Null until the advertiser asks to remove this refunded reader from the email tool; then queued, removed or failed.';
comment on column public.esp_deliveries.removal_error is 'The provider''s own message for the last failed removal attempt (shown to the advertiser).';
comment on column public.esp_deliveries.removed_at is 'When the email tool confirmed the removal.';
comment on column public.esp_deliveries.removal_locked_until is 'Internal: a removal in flight (2 minutes).';
create index esp_deliveries_removal_due_idx on public.esp_deliveries using btree (removal_next_attempt_at) where (removal_status = 'queued'::text);

create function public.remove_refunded_from_esp(p_subscription_id uuid)
 returns uuid
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  me uuid := (select auth.uid());
  d public.esp_deliveries;
  refunded boolean;
begin
  perform private.require_aal2();
  if not exists (select 1 from public.profiles where id = me and user_type = 'advertiser') then
    raise exception 'Only advertisers can remove readers from their email tool' using errcode = '42501';
  end if;
  select * into d from public.esp_deliveries e
  where e.subscription_id = p_subscription_id and e.advertiser_id = me
  order by e.created_at desc limit 1
  for update;
  if not found then
    raise exception 'This reader was not sent to an email tool of yours: nothing to remove' using errcode = '42501';
  end if;
  select s.not_counted_reason = 'refunded' into refunded from public.newsletter_subscriptions s where s.id = d.subscription_id;
  if not coalesce(refunded, false) then
    raise exception 'Only refunded readers can be removed from your email tool; this reader is still paid for' using errcode = '22023';
  end if;
  if d.status <> 'delivered' then
    raise exception 'This reader never reached your email tool: nothing to remove' using errcode = '22023';
  end if;
  if d.removal_status = 'removed' then
    raise exception 'This reader was already removed from your email tool' using errcode = '22023';
  end if;
  if d.removal_status = 'queued' then
    raise exception 'This reader is already being removed from your email tool' using errcode = '22023';
  end if;
  if private.hit_rate_limit('esp-remove:' || me, 30, interval '1 minute') > 0 then
    raise exception 'You asked for 30 removals in the last minute; wait a moment' using errcode = '22023';
  end if;
  update public.esp_deliveries set removal_status = 'queued', removal_requested_at = now(), removal_attempts = 0,
    removal_next_attempt_at = now(), removal_locked_until = null, removal_error = null, updated_at = now()
  where id = d.id;
  perform private.kick_edge_function('deliver-esp', 120000);
  return d.id;
end
$function$;
comment on function public.remove_refunded_from_esp(p_subscription_id uuid) is 'The campaign''s advertiser asks to remove a refunded reader that was delivered from their email tool: queued for deliver-esp (live session, aal2 when enrolled; 30 a minute). A failed removal can be asked again.';
revoke execute on function public.remove_refunded_from_esp(p_subscription_id uuid) from anon, public;
grant execute on function public.remove_refunded_from_esp(p_subscription_id uuid) to authenticated, service_role;

create function public.claim_esp_removals(p_limit integer default 20)
 returns table(id uuid, provider text, target_id text, api_key text, email text, remote_id text)
 language plpgsql
 security definer
 set search_path to ''
as $function$
#variable_conflict use_column
declare
  wanted integer := least(greatest(coalesce(p_limit, 20), 1), 100);
begin
  -- The same lock, log and pauses as the deliveries: a removal is one request on the key's budget, and a key the
  -- provider paused (429) waits. Removals are rare and asked one by one, so they go first, ahead of the budget.
  perform pg_advisory_xact_lock(hashtext('public.claim_esp_deliveries'));
  delete from private.esp_key_pauses p where p.paused_until <= now();
  return query
  with due as (
    select d.id from public.esp_deliveries d join public.esp_connections c on c.id = d.connection_id
    where d.removal_status = 'queued' and d.removal_next_attempt_at <= now()
      and (d.removal_locked_until is null or d.removal_locked_until < now())
      and not exists (select 1 from private.esp_key_pauses p where p.key_fingerprint = c.key_fingerprint)
    order by d.removal_next_attempt_at
    limit wanted
    for update of d skip locked
  ), claimed as (
    update public.esp_deliveries d
    set removal_attempts = d.removal_attempts + 1, removal_locked_until = now() + interval '2 minutes'
    from due where d.id = due.id
    returning d.id, d.connection_id, d.subscription_id, d.remote_id
  ), logged as (
    insert into private.esp_request_log (key_fingerprint, requests)
    select c.key_fingerprint, count(*)::integer from claimed cl join public.esp_connections c on c.id = cl.connection_id
    group by c.key_fingerprint
  )
  select cl.id, c.provider, c.target_id, v.decrypted_secret, s.email::text, cl.remote_id
  from claimed cl
  join public.esp_connections c on c.id = cl.connection_id
  join vault.decrypted_secrets v on v.id = c.secret_id
  join public.newsletter_subscriptions s on s.id = cl.subscription_id;
end
$function$;
comment on function public.claim_esp_removals(p_limit integer) is 'deliver-esp, service role only: takes up to p_limit due removals of refunded readers for 2 minutes, never for a key the provider paused, with the decrypted key, the address and the id the provider gave the subscriber.';
revoke execute on function public.claim_esp_removals(p_limit integer) from anon, authenticated, public;
grant execute on function public.claim_esp_removals(p_limit integer) to service_role;

create function public.finish_esp_removal(p_id uuid, p_response_status integer, p_error text default null::text, p_retryable boolean default false, p_retry_after_ms integer default null::integer)
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
  if not found or d.removal_status is distinct from 'queued' or d.removal_locked_until is null then
    return coalesce(d.removal_status, 'missing');
  end if;
  if p_error is null then
    update public.esp_deliveries set removal_status = 'removed', removed_at = now(), removal_error = null,
      removal_locked_until = null, updated_at = now()
    where id = p_id;
    return 'removed';
  end if;
  delay := least(coalesce(case when p_retry_after_ms is not null then make_interval(secs => greatest(p_retry_after_ms, 0) / 1000.0) end,
    private.esp_retry_delay(d.removal_attempts)), interval '1 day');
  if not coalesce(p_retryable, false) or now() + delay > d.removal_requested_at + interval '1 day' then
    update public.esp_deliveries set removal_status = 'failed', removal_locked_until = null, updated_at = now(),
      removal_error = left(case when coalesce(p_retryable, false) then 'Still failing after a day: ' else '' end || p_error, 500)
    where id = p_id;
    return 'failed';
  end if;
  if p_response_status = 429 then
    select c.key_fingerprint into fp from public.esp_connections c where c.id = d.connection_id;
    insert into private.esp_key_pauses as p (key_fingerprint, paused_until) values (fp, now() + delay)
    on conflict (key_fingerprint) do update set paused_until = greatest(p.paused_until, excluded.paused_until);
  end if;
  update public.esp_deliveries set removal_next_attempt_at = now() + delay, removal_error = left(p_error, 500),
    removal_locked_until = null, updated_at = now()
  where id = p_id;
  return 'queued';
end
$function$;
comment on function public.finish_esp_removal(p_id uuid, p_response_status integer, p_error text, p_retryable boolean, p_retry_after_ms integer) is 'deliver-esp, service role only: records one removal attempt. Success marks the reader removed; a retryable failure (429, 5xx, no answer) waits Retry-After or the backoff (a 429 pauses the whole key) for up to a day; any other failure is final with the provider''s message.';
revoke execute on function public.finish_esp_removal(p_id uuid, p_response_status integer, p_error text, p_retryable boolean, p_retry_after_ms integer) from anon, authenticated, public;
grant execute on function public.finish_esp_removal(p_id uuid, p_response_status integer, p_error text, p_retryable boolean, p_retry_after_ms integer) to service_role;

-- The job each 10 seconds also calls the deliverer for removals that are due (a retry after a 429 or an outage).
create or replace function private.dispatch_esp_deliveries()
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  due integer;
begin
  select count(*) into due from public.esp_deliveries d
  where (d.status = 'queued' and d.next_attempt_at <= now() and (d.locked_until is null or d.locked_until < now()))
    or (d.removal_status = 'queued' and d.removal_next_attempt_at <= now()
      and (d.removal_locked_until is null or d.removal_locked_until < now()));
  if due > 0 then
    perform private.kick_edge_function_or_raise('deliver-esp', 120000);
  end if;
  return due;
end
$function$;
comment on function private.dispatch_esp_deliveries() is 'Scheduled every 10 seconds (deliver-esp): calls the deliverer when ESP deliveries or removals of refunded readers are due (retries after their backoff, keys whose pause ended); returns how many.';
revoke execute on function private.dispatch_esp_deliveries() from public;
