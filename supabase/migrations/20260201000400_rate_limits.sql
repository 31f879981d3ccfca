-- Rate limits kept in the database (issue 21), where every edge-function isolate and every API request sees
-- the same count: resend_webhook_delivery had none (~470 POSTs a minute at any third party the advertiser
-- named), the /contact form had none (300 messages in 0.6 s), confirmation emails were limited per isolate
-- and per +tag-folded address only (15 Gmail dot/googlemail spellings put 15 emails into one inbox), and an
-- advertiser could open any number of checkout sessions.

create table private.rate_limits (
  key text primary key,
  window_start timestamptz not null default now(),
  hits integer not null default 0
);
comment on table private.rate_limits is
  'Fixed-window counters, one row per key (what is limited and for whom). Refused attempts roll back with their statement, so only allowed ones count.';
create index rate_limits_window_idx on private.rate_limits (window_start);

-- Counts one attempt for p_key; 0 when it is within p_limit for the window, else the seconds until it resets.
create function private.hit_rate_limit(p_key text, p_limit integer, p_window interval)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
comment on function private.hit_rate_limit(text, integer, interval) is
  'Internal: counts one attempt against a fixed window; returns 0 when allowed, else the seconds to wait.';
revoke execute on function private.hit_rate_limit(text, integer, interval) from public, anon, authenticated, service_role;

select cron.schedule('purge-rate-limits', '37 3 * * *', $$delete from private.rate_limits where window_start < now() - interval '1 day'$$);

-- Resending a delivery makes the platform POST to the advertiser's endpoint again: 10 a minute per advertiser.
create or replace function public.resend_webhook_delivery(p_delivery_id uuid)
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
  if private.hit_rate_limit('webhook-resend:' || d.advertiser_id, 10, interval '1 minute') > 0 then
    raise exception 'You resent 10 deliveries in the last minute; wait a moment' using errcode = '22023';
  end if;
  -- Same webhook-id: a receiver that already processed it can tell.
  update public.webhook_deliveries set status = 'pending', attempts = 0, next_attempt_at = now(), locked_until = null
    where id = d.id;
  perform private.kick_webhooks();
  return d.id;
end
$$;
comment on function public.resend_webhook_delivery(uuid) is
  'Advertisers send a finished delivery again (same webhook-id), at most 10 a minute each.';

-- /contact: at most 5 messages per 10 minutes from one address (the platform's client IP) and 5 an hour
-- per sender's inbox, whoever sends them (visitors and signed-in users alike).
create function private.limit_contact_messages()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  ip text := private.client_ip();
begin
  -- The request's role from its JWT (current_user is this function's owner): visitors and signed-in users.
  if coalesce((select auth.role()), '') not in ('anon', 'authenticated') then
    return new;
  end if;
  if (ip is not null and private.hit_rate_limit('contact-ip:' || ip, 5, interval '10 minutes') > 0)
     or private.hit_rate_limit('contact-inbox:' || public.canonical_email(new.email::text), 5, interval '1 hour') > 0 then
    raise exception 'You have sent several messages in a short time. Please wait a few minutes before sending another.'
      using errcode = '22023';
  end if;
  return new;
end
$$;
comment on function private.limit_contact_messages() is 'Trigger: refuses a flood of /contact messages from one address or for one inbox.';
revoke execute on function private.limit_contact_messages() from public, anon, authenticated, service_role;
create trigger contact_messages_rate_limit before insert on public.contact_messages
  for each row execute function private.limit_contact_messages();

-- Confirmation emails to one inbox (subscribe and send-backup-confirmation): 3 an hour per canonical
-- address, so Gmail's dots, +tags and googlemail.com all share one allowance.
create function public.take_confirmation_email_allowance(p_email text)
returns integer
language sql
security definer
set search_path = ''
as $$
  select private.hit_rate_limit('confirmation-inbox:' || public.canonical_email(p_email), 3, interval '1 hour')
$$;
comment on function public.take_confirmation_email_allowance(text) is
  'subscribe and send-backup-confirmation, service role only: counts one confirmation email to this inbox (canonical address); 0 when allowed, else the seconds until the next one may go.';
revoke execute on function public.take_confirmation_email_allowance(text) from public, anon, authenticated;
grant execute on function public.take_confirmation_email_allowance(text) to service_role;

-- Checkout sessions: at most 5 open (pending, not expired) per advertiser. create-checkout-session asks before
-- it opens one at Stripe; open_deposit would otherwise record as many as a script can request.
create function public.check_checkout_allowance(p_user_id uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if (select count(*) from public.deposits d
      where d.user_id = p_user_id and d.status = 'pending' and coalesce(d.expires_at, d.created_at + interval '1 hour') > now()) >= 5 then
    raise exception 'You already have 5 payment pages open. Finish or cancel one, or wait an hour, before opening another.'
      using errcode = '22023';
  end if;
end
$$;
comment on function public.check_checkout_allowance(uuid) is
  'create-checkout-session, service role only: refuses a sixth open checkout session for one advertiser with a message they can act on.';
revoke execute on function public.check_checkout_allowance(uuid) from public, anon, authenticated;
grant execute on function public.check_checkout_allowance(uuid) to service_role;
