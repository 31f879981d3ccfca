-- The database calls the edge functions it schedules (send-notifications, deliver-webhooks, deliver-esp,
-- send-payouts) with a credential of their own instead of the legacy service-role JWT (issue 36, point 5): Vault's
-- `functions_secret`, sent by pg_net as the header `x-functions-secret` and checked by each function against its
-- FUNCTIONS_SECRET (supabase/functions/_shared/functions-secret.ts). It opens those four functions and nothing else,
-- where the service-role key opened the whole database, and it outlives the legacy JWT keys hosted Supabase
-- retires. The functions are `verify_jwt = false` (config.toml): no JWT comes with these calls.
--
-- kick_edge_function keeps its signature (so its grants stand) and reads project_url and functions_secret; the
-- message that names what to store moves into kick_edge_function_or_raise, which the five scheduled dispatchers call,
-- so an operator reads the Vault names in one place. Nothing is deployed yet: the old Vault name service_role_key is
-- not read any more.
--
-- Grants: every function here is internal (schema private), run by the scheduled jobs as postgres or by definer
-- functions; no API role executes any of them, so each revokes PUBLIC's execute and grants nothing (grants.test.ts).

create or replace function private.kick_edge_function(p_function text, p_timeout_milliseconds integer)
 returns boolean
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  base text := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url');
  secret text := (select decrypted_secret from vault.decrypted_secrets where name = 'functions_secret');
  target text;
begin
  if base is null or secret is null then
    return false;
  end if;
  target := rtrim(base, '/') || '/functions/v1/' || p_function;
  -- One call waiting to go out is enough: the function works through everything due when it runs.
  if exists (select 1 from net.http_request_queue q where q.url = target) then
    return true;
  end if;
  perform net.http_post(
    url => target,
    body => '{}'::jsonb,
    headers => jsonb_build_object('Content-Type', 'application/json', 'x-functions-secret', secret),
    timeout_milliseconds => p_timeout_milliseconds
  );
  return true;
end
$function$;
comment on function private.kick_edge_function(p_function text, p_timeout_milliseconds integer) is 'Internal: asks an edge function (send-notifications, deliver-webhooks, deliver-esp, send-payouts) through pg_net, after commit, to work through what is due now. The project URL and the functions secret (sent as x-functions-secret, the functions'' FUNCTIONS_SECRET) come from Vault, as Supabase''s guide to scheduling functions keeps its credentials; without them it does nothing and returns false (the scheduled jobs raise then, so the misconfiguration shows).';
revoke execute on function private.kick_edge_function(p_function text, p_timeout_milliseconds integer) from public;

create function private.kick_edge_function_or_raise(p_function text, p_timeout_milliseconds integer)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if not private.kick_edge_function(p_function, p_timeout_milliseconds) then
    raise exception 'Store project_url and functions_secret in Vault (vault.create_secret) so scheduled jobs can call edge functions; functions_secret must equal the functions'' FUNCTIONS_SECRET';
  end if;
end
$function$;
comment on function private.kick_edge_function_or_raise(p_function text, p_timeout_milliseconds integer) is 'Internal: kick_edge_function for the scheduled dispatchers, which have work due: without the Vault secrets it raises, naming them, so the job''s run records the misconfiguration.';
revoke execute on function private.kick_edge_function_or_raise(p_function text, p_timeout_milliseconds integer) from public, anon, authenticated, service_role;

create or replace function private.dispatch_notifications()
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  due integer;
begin
  select count(*) into due from public.notification_queue
  where (status = 'queued' and next_attempt_at <= now()) or (status = 'sending' and locked_until < now());
  if due > 0 then
    perform private.kick_edge_function_or_raise('send-notifications', 60000);
  end if;
  return due;
end
$function$;
comment on function private.dispatch_notifications() is 'Scheduled every minute (send-notifications): calls the sender when notifications are due; returns how many.';
revoke execute on function private.dispatch_notifications() from public;

create or replace function private.dispatch_webhooks()
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
  if due > 0 then
    perform private.kick_edge_function_or_raise('deliver-webhooks', 120000);
  end if;
  return due;
end
$function$;
comment on function private.dispatch_webhooks() is 'Scheduled every minute (deliver-webhooks): calls the deliverer when deliveries are due; returns how many.';
revoke execute on function private.dispatch_webhooks() from public;

create or replace function private.dispatch_payouts()
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  a record;
  amount numeric;
  due integer;
begin
  -- Automatic payouts: everything available, once it reaches the minimum, with nothing already on its way.
  for a in
    select p.publisher_id from public.payout_accounts p
    where p.auto_payout and p.state = 'ready'
      and not exists (select 1 from public.payout_requests r
                      where r.publisher_id = p.publisher_id and r.status in ('requested', 'sending'))
  loop
    perform private.lock_wallet(a.publisher_id);
    amount := (select available from private.publisher_balance_of(a.publisher_id));
    if amount >= 50 then
      insert into public.payout_requests (publisher_id, amount) values (a.publisher_id, amount);
    end if;
  end loop;
  select count(*) into due from public.payout_requests r
  where (r.status = 'requested' or (r.status = 'sending' and r.locked_until < now()))
    and exists (select 1 from public.payout_accounts p where p.publisher_id = r.publisher_id);
  if due > 0 then
    perform private.kick_edge_function_or_raise('send-payouts', 120000);
  end if;
  return due;
end
$function$;
comment on function private.dispatch_payouts() is 'Scheduled every minute (send-payouts): requests automatic payouts, then calls send-payouts when payouts are due; returns how many.';
revoke execute on function private.dispatch_payouts() from public;

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
  where d.status = 'queued' and d.next_attempt_at <= now() and (d.locked_until is null or d.locked_until < now());
  if due > 0 then
    perform private.kick_edge_function_or_raise('deliver-esp', 120000);
  end if;
  return due;
end
$function$;
comment on function private.dispatch_esp_deliveries() is 'Scheduled every 10 seconds (deliver-esp): calls the deliverer when ESP deliveries are due (retries after their backoff, keys whose pause ended); returns how many.';
revoke execute on function private.dispatch_esp_deliveries() from public;

create or replace function private.dispatch_esp_engagement()
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
  if due > 0 then
    perform private.kick_edge_function_or_raise('deliver-esp', 120000);
  end if;
  return due;
end
$function$;
comment on function private.dispatch_esp_engagement() is 'Scheduled every 10 minutes (read-esp-engagement): calls deliver-esp when engagement read-backs are due; returns how many.';
revoke execute on function private.dispatch_esp_engagement() from public;
