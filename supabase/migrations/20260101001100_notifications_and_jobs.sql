-- Baseline, notifications and jobs: the notification queue, the contact form, and the scheduled jobs that are not a domain's own.
--
-- One of the 13 files that replaced the 38 migrations of January 2026 (none had been applied to a hosted
-- database; docs/decisions.md), rendered from the schema they built with the changes listed in
-- supabase/tests/helpers/squash-changes.ts; supabase/tests/schema.test.ts proves everything else equal. The
-- history goes on in new migrations after these; the current state is read in supabase/schemas/.

-- === Tables ==============================================================================================

create table public.contact_messages (
  id uuid default gen_random_uuid() not null,
  name text not null,
  email extensions.citext not null,
  subject text not null,
  message text not null,
  handled_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  constraint contact_messages_pkey primary key (id),
  constraint contact_messages_email_check check (((char_length((email)::text) <= 254) and ((email)::text ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'::text))),
  constraint contact_messages_message_check check (((char_length(trim(both from message)) >= 1) and (char_length(trim(both from message)) <= 5000))),
  constraint contact_messages_name_check check (((char_length(trim(both from name)) >= 1) and (char_length(trim(both from name)) <= 120))),
  constraint contact_messages_subject_check check (((char_length(trim(both from subject)) >= 1) and (char_length(trim(both from subject)) <= 200)))
);
alter table public.contact_messages enable row level security;
create index contact_messages_created_idx on public.contact_messages using btree (created_at desc);
comment on table public.contact_messages is 'The /contact form''s inbox: write-only for visitors, read by admins.';
revoke insert, update, delete, truncate, references, trigger on table public.contact_messages from anon;
revoke insert, update, truncate, references, trigger on table public.contact_messages from authenticated;
revoke truncate, references, trigger on table public.contact_messages from service_role;
grant insert (name, email, subject, message) on public.contact_messages to anon;
grant insert (name, email, subject, message) on public.contact_messages to authenticated;
grant update (handled_at) on public.contact_messages to authenticated;

create table public.notification_queue (
  id uuid default gen_random_uuid() not null,
  user_id uuid not null,
  template text not null,
  data jsonb default '{}'::jsonb not null,
  dedupe_key text,
  status text default 'queued'::text not null,
  attempts integer default 0 not null,
  next_attempt_at timestamp with time zone default now() not null,
  locked_until timestamp with time zone,
  last_error text,
  sent_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint notification_queue_pkey primary key (id),
  constraint notification_queue_dedupe_key_key unique (dedupe_key),
  constraint notification_queue_status_check check ((status = any (array['queued'::text, 'sending'::text, 'sent'::text, 'failed'::text]))),
  constraint notification_queue_template_check check ((template = any (array['source_reviewed'::text, 'campaign_reviewed'::text, 'low_balance'::text, 'payout_paid'::text, 'dispute_decided'::text, 'deposit_receipt'::text]))),
  constraint notification_queue_user_id_fkey foreign key (user_id) references public.profiles(id) on delete cascade
);
alter table public.notification_queue enable row level security;
create index notification_queue_due_idx on public.notification_queue using btree (next_attempt_at) where (status = any (array['queued'::text, 'sending'::text]));
create index notification_queue_user_idx on public.notification_queue using btree (user_id, created_at desc);
comment on table public.notification_queue is 'Emails waiting to be sent, being sent, sent or given up on. Only the service role (the send-notifications function) reads it, through claim_notifications.';
revoke all on table public.notification_queue from anon, authenticated;
revoke truncate, references, trigger on table public.notification_queue from service_role;

-- === Functions ===========================================================================================

create function public.claim_notifications(p_limit integer default 20)
 returns table(id uuid, template text, data jsonb, email text, full_name text)
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
comment on function public.claim_notifications(p_limit integer) is 'send-notifications, service role only: takes up to p_limit due emails for 5 minutes (skip locked, so two senders never take the same one).';
revoke execute on function public.claim_notifications(p_limit integer) from anon, authenticated, public;

create function private.dispatch_notifications()
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
  if due > 0 and not private.kick_edge_function('send-notifications', 60000) then
    raise exception 'Store project_url and service_role_key in Vault (vault.create_secret) so scheduled jobs can call edge functions';
  end if;
  return due;
end
$function$;
comment on function private.dispatch_notifications() is 'Scheduled every minute (send-notifications): calls the sender when notifications are due; returns how many.';
revoke execute on function private.dispatch_notifications() from public;

create function private.enqueue_notification(p_user_id uuid, p_template text, p_data jsonb, p_dedupe_key text default null::text)
 returns uuid
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  new_id uuid;
begin
  insert into public.notification_queue (user_id, template, data, dedupe_key)
  values (p_user_id, p_template, coalesce(p_data, '{}'::jsonb), p_dedupe_key)
  on conflict (dedupe_key) do nothing
  returning id into new_id;
  if new_id is not null then
    perform private.kick_edge_function('send-notifications', 60000);
  end if;
  return new_id;
end
$function$;
comment on function private.enqueue_notification(p_user_id uuid, p_template text, p_data jsonb, p_dedupe_key text) is 'Queues one notification email for a user (template from supabase/templates/notifications, its data), once per dedupe key. Call it in the transaction of the event it announces.';
revoke execute on function private.enqueue_notification(p_user_id uuid, p_template text, p_data jsonb, p_dedupe_key text) from public;

create function public.finish_notification(p_id uuid, p_error text default null::text)
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
comment on function public.finish_notification(p_id uuid, p_error text) is 'send-notifications, service role only: marks a claimed email sent, or schedules its retry (1, 2, 4 … 60 minutes; given up after 8 attempts).';
revoke execute on function public.finish_notification(p_id uuid, p_error text) from anon, authenticated, public;

create function private.kick_edge_function(p_function text, p_timeout_milliseconds integer)
 returns boolean
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  base text := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url');
  key text := (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key');
  target text;
begin
  if base is null or key is null then
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
    headers => jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || key, 'apikey', key),
    timeout_milliseconds => p_timeout_milliseconds
  );
  return true;
end
$function$;
comment on function private.kick_edge_function(p_function text, p_timeout_milliseconds integer) is 'Internal: asks an edge function (send-notifications, deliver-webhooks) through pg_net, after commit, to work through what is due now. The project URL and service-role key come from Vault, as Supabase''s guide to scheduling functions does; without them it does nothing and returns false (the scheduled jobs raise then, so the misconfiguration shows).';
revoke execute on function private.kick_edge_function(p_function text, p_timeout_milliseconds integer) from public;

create function private.limit_contact_messages()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
comment on function private.limit_contact_messages() is 'Trigger: refuses a flood of /contact messages from one address or for one inbox.';
revoke execute on function private.limit_contact_messages() from public;

create function private.notify_low_balances()
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  r record;
  told integer := 0;
begin
  -- Recovered balances re-arm the alert.
  delete from private.low_balance_alerts a
  where not exists (
    select 1 from public.campaigns c where c.advertiser_id = a.user_id and c.status = 'active'
    group by c.advertiser_id
    having private.wallet_available(a.user_id) < 5 * max(c.price_per_subscriber));
  for r in
    select c.advertiser_id as user_id, 5 * max(c.price_per_subscriber) as threshold,
           private.wallet_available(c.advertiser_id) as available
    from public.campaigns c
    where c.status = 'active'
      and not exists (select 1 from private.low_balance_alerts a where a.user_id = c.advertiser_id)
    group by c.advertiser_id
    having private.wallet_available(c.advertiser_id) < 5 * max(c.price_per_subscriber)
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
$function$;
comment on function private.notify_low_balances() is 'Scheduled every minute (notify-low-balances): one low-balance email per fall below five subscribers'' price.';
revoke execute on function private.notify_low_balances() from public;

create function private.notify_review_decision()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
comment on function private.notify_review_decision() is 'Trigger: emails the owner when an admin approves, rejects, bans or reinstates their source or campaign.';
revoke execute on function private.notify_review_decision() from public;

-- === Triggers ============================================================================================

create trigger audience_sources_notify_review after update of status on public.audience_sources for each row when ((new.status is distinct from old.status)) execute function private.notify_review_decision();

create trigger campaigns_notify_review after update of status on public.campaigns for each row when ((new.status is distinct from old.status)) execute function private.notify_review_decision();

create trigger contact_messages_rate_limit before insert on public.contact_messages for each row execute function private.limit_contact_messages();

create trigger notification_queue_set_updated_at before update on public.notification_queue for each row execute function public.set_updated_at();

-- === Row-level security policies =========================================================================

create policy "Admins can delete contact messages" on public.contact_messages
  for delete to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Admins can mark contact messages handled" on public.contact_messages
  for update to authenticated
  using (( select public.is_admin() as is_admin))
  with check (( select public.is_admin() as is_admin));
create policy "Admins can read contact messages" on public.contact_messages
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Admins delete contact messages only with two factors" on public.contact_messages as restrictive
  for delete to authenticated
  using ((( select (auth.jwt() ->> 'aal'::text)) = 'aal2'::text));
create policy "Admins handle contact messages only with two factors" on public.contact_messages as restrictive
  for update to authenticated
  using ((( select (auth.jwt() ->> 'aal'::text)) = 'aal2'::text))
  with check ((( select (auth.jwt() ->> 'aal'::text)) = 'aal2'::text));
create policy "Admins read contact messages only with two factors" on public.contact_messages as restrictive
  for select to authenticated
  using ((( select (auth.jwt() ->> 'aal'::text)) = 'aal2'::text));
create policy "Signed-in users can send a contact message" on public.contact_messages
  for insert to authenticated
  with check ((handled_at is null));
create policy "Visitors can send a contact message" on public.contact_messages
  for insert to anon
  with check ((handled_at is null));

-- === Scheduled jobs (pg_cron) ============================================================================

select cron.schedule('notify-low-balances', '* * * * *', $job$select private.notify_low_balances()$job$);

select cron.schedule('purge-job-history', '27 3 * * *', $job$delete from cron.job_run_details where end_time < now() - interval '14 days'$job$);

select cron.schedule('send-notifications', '* * * * *', $job$select private.dispatch_notifications()$job$);
