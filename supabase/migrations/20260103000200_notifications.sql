-- Notification emails (PRODUCT.md "Notifications"): a database function queues one row per email in
-- notification_queue, in the same transaction as the event it announces, so an event that rolls back sends
-- nothing and one that commits is never forgotten. The send-notifications edge function delivers the queue
-- over SMTP; it is called through pg_net right after a notification is queued and by a pg_cron job every
-- minute, which also retries what failed (backoff up to an hour, 8 attempts). Templates live in
-- supabase/templates/notifications.

create table public.notification_queue (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  template text not null check (template in (
    'source_reviewed', 'campaign_reviewed', 'low_balance', 'payout_paid', 'dispute_decided', 'deposit_receipt')),
  data jsonb not null default '{}'::jsonb,
  -- One email per event however often the event is replayed (e.g. 'payout_paid:<payout id>').
  dedupe_key text unique,
  status text not null default 'queued' check (status in ('queued', 'sending', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  locked_until timestamptz,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.notification_queue is
  'Emails waiting to be sent, being sent, sent or given up on. Only the service role (the send-notifications function) reads it, through claim_notifications.';
create index notification_queue_due_idx on public.notification_queue (next_attempt_at) where status in ('queued', 'sending');
create index notification_queue_user_idx on public.notification_queue (user_id, created_at desc);

-- No policy for anon or authenticated: nobody but the service role (which bypasses RLS) reaches a row.
alter table public.notification_queue enable row level security;
revoke all on public.notification_queue from anon, authenticated;

create trigger notification_queue_set_updated_at before update on public.notification_queue
  for each row execute function public.set_updated_at();

-- Calls the send-notifications function through pg_net (sent after commit; nothing if the caller rolls back).
-- The project's URL and service-role key come from Vault, as Supabase's guide to scheduling functions does;
-- without them it does nothing and says so (the scheduled job raises instead, so the misconfiguration shows).
create function private.kick_notifications()
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
  target := rtrim(base, '/') || '/functions/v1/send-notifications';
  -- One call waiting to go out is enough: it sends everything due when it runs.
  if exists (select 1 from net.http_request_queue q where q.url = target) then
    return true;
  end if;
  perform net.http_post(
    url => target,
    body => '{}'::jsonb,
    headers => jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || key, 'apikey', key),
    timeout_milliseconds => 60000
  );
  return true;
end
$$;
comment on function private.kick_notifications() is
  'Internal: asks the send-notifications edge function (via pg_net, after commit) to deliver the queue now.';
revoke execute on function private.kick_notifications() from public, anon, authenticated, service_role;

create function private.enqueue_notification(p_user_id uuid, p_template text, p_data jsonb, p_dedupe_key text default null)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  new_id uuid;
begin
  insert into public.notification_queue (user_id, template, data, dedupe_key)
  values (p_user_id, p_template, coalesce(p_data, '{}'::jsonb), p_dedupe_key)
  on conflict (dedupe_key) do nothing
  returning id into new_id;
  if new_id is not null then
    perform private.kick_notifications();
  end if;
  return new_id;
end
$$;
comment on function private.enqueue_notification(uuid, text, jsonb, text) is
  'Queues one notification email for a user (template from supabase/templates/notifications, its data), once per dedupe key. Call it in the transaction of the event it announces.';
revoke execute on function private.enqueue_notification(uuid, text, jsonb, text) from public, anon, authenticated, service_role;

-- The scheduled job: anything due (new, retry time reached, or a lease that expired because a sender died)
-- gets a call to the function. Raises when Vault lacks the secrets, so the job's failed runs say why.
create function private.dispatch_notifications()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  due integer;
begin
  select count(*) into due from public.notification_queue
  where (status = 'queued' and next_attempt_at <= now()) or (status = 'sending' and locked_until < now());
  if due > 0 and not private.kick_notifications() then
    raise exception 'Store project_url and service_role_key in Vault (vault.create_secret) so scheduled jobs can call edge functions';
  end if;
  return due;
end
$$;
comment on function private.dispatch_notifications() is
  'Scheduled every minute (send-notifications): calls the sender when notifications are due; returns how many.';
revoke execute on function private.dispatch_notifications() from public, anon, authenticated, service_role;

create function public.claim_notifications(p_limit integer default 20)
returns table (id uuid, template text, data jsonb, email text, full_name text)
language plpgsql
security definer
set search_path = ''
as $$
begin
  return query
  with due as (
    select q.id from public.notification_queue q
    where (q.status = 'queued' and q.next_attempt_at <= now()) or (q.status = 'sending' and q.locked_until < now())
    order by q.next_attempt_at
    limit least(greatest(coalesce(p_limit, 20), 1), 100)
    for update skip locked
  ), claimed as (
    update public.notification_queue q
    set status = 'sending', attempts = q.attempts + 1, locked_until = now() + interval '5 minutes'
    from due where q.id = due.id
    returning q.id, q.template, q.data, q.user_id
  )
  select c.id, c.template, c.data, p.email::text, p.full_name
  from claimed c left join public.profiles p on p.id = c.user_id;
end
$$;
comment on function public.claim_notifications(integer) is
  'send-notifications, service role only: takes up to p_limit due emails for 5 minutes (skip locked, so two senders never take the same one).';
revoke execute on function public.claim_notifications(integer) from public, anon, authenticated;
grant execute on function public.claim_notifications(integer) to service_role;

create function public.finish_notification(p_id uuid, p_error text default null)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  q public.notification_queue;
begin
  select * into q from public.notification_queue where id = p_id for update;
  if not found or q.status <> 'sending' then
    return coalesce(q.status, 'missing');
  end if;
  if p_error is null then
    update public.notification_queue set status = 'sent', sent_at = now(), locked_until = null, last_error = null
    where id = p_id;
    return 'sent';
  end if;
  update public.notification_queue set
    status = case when q.attempts >= 8 then 'failed' else 'queued' end,
    next_attempt_at = now() + least(interval '1 minute' * power(2, q.attempts - 1), interval '1 hour'),
    locked_until = null,
    last_error = left(p_error, 1000)
  where id = p_id;
  return case when q.attempts >= 8 then 'failed' else 'queued' end;
end
$$;
comment on function public.finish_notification(uuid, text) is
  'send-notifications, service role only: marks a claimed email sent, or schedules its retry (1, 2, 4 … 60 minutes; given up after 8 attempts).';
revoke execute on function public.finish_notification(uuid, text) from public, anon, authenticated;
grant execute on function public.finish_notification(uuid, text) to service_role;

-- Review decisions reach the owner whichever function made them (review, ban, reinstate): a trigger on
-- the status, with the admin's note.
create function private.notify_review_decision()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  was_public boolean;
  is_public boolean;
  decision text;
  owner uuid;
begin
  if tg_table_name = 'audience_sources' then
    was_public := public.is_source_public(old.status);
    is_public := public.is_source_public(new.status);
    owner := new.publisher_id;
  else
    was_public := old.status in ('active', 'paused', 'completed');
    is_public := new.status = 'active';
    owner := new.advertiser_id;
  end if;
  decision := case
    when new.status = 'banned' then 'banned'
    when new.status = 'rejected' then 'rejected'
    when is_public and not was_public and old.status = 'banned' then 'reinstated'
    when is_public and not was_public then 'approved'
  end;
  if decision is not null then
    perform private.enqueue_notification(
      owner,
      case when tg_table_name = 'audience_sources' then 'source_reviewed' else 'campaign_reviewed' end,
      jsonb_build_object(
        case when tg_table_name = 'audience_sources' then 'source_name' else 'campaign_name' end, new.name,
        'status', decision, 'note', new.review_note),
      null);
  end if;
  return null;
end
$$;
comment on function private.notify_review_decision() is
  'Trigger: emails the owner when an admin approves, rejects, bans or reinstates their source or campaign.';
revoke execute on function private.notify_review_decision() from public, anon, authenticated, service_role;

create trigger audience_sources_notify_review after update of status on public.audience_sources
  for each row when (new.status is distinct from old.status) execute function private.notify_review_decision();
create trigger campaigns_notify_review after update of status on public.campaigns
  for each row when (new.status is distinct from old.status) execute function private.notify_review_decision();

-- Low balance: an advertiser with an active campaign whose available balance cannot pay five subscribers at
-- their highest price gets one email, and another only after the balance has recovered and fallen again.
create table private.low_balance_alerts (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  alerted_at timestamptz not null default now()
);
comment on table private.low_balance_alerts is
  'Advertisers already told their balance is low; the row goes when the balance recovers, re-arming the alert.';

create function private.notify_low_balances()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  r record;
  told integer := 0;
begin
  -- Recovered balances re-arm the alert.
  delete from private.low_balance_alerts a
  where not exists (
    select 1 from public.campaigns c where c.advertiser_id = a.user_id and c.status = 'active'
    group by c.advertiser_id
    having public.wallet_available(a.user_id) < 5 * max(c.price_per_subscriber));
  for r in
    select c.advertiser_id as user_id, 5 * max(c.price_per_subscriber) as threshold,
           public.wallet_available(c.advertiser_id) as available
    from public.campaigns c
    where c.status = 'active'
      and not exists (select 1 from private.low_balance_alerts a where a.user_id = c.advertiser_id)
    group by c.advertiser_id
    having public.wallet_available(c.advertiser_id) < 5 * max(c.price_per_subscriber)
  loop
    insert into private.low_balance_alerts (user_id) values (r.user_id) on conflict do nothing;
    if found then
      perform private.enqueue_notification(r.user_id, 'low_balance',
        jsonb_build_object('available', r.available, 'threshold', r.threshold), null);
      told := told + 1;
    end if;
  end loop;
  return told;
end
$$;
comment on function private.notify_low_balances() is
  'Scheduled every minute (notify-low-balances): one low-balance email per fall below five subscribers'' price.';
revoke execute on function private.notify_low_balances() from public, anon, authenticated, service_role;

select cron.schedule('send-notifications', '* * * * *', 'select private.dispatch_notifications()');
select cron.schedule('notify-low-balances', '* * * * *', 'select private.notify_low_balances()');
