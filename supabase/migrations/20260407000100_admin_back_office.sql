-- Admin back office (issue 23 point 7): admins can investigate. The contact inbox read and marked handled through
-- admin functions; a user page (money from the same balance functions the owner sees, sessions, suspension); and the
-- ledger and deposits searched, filtered and exported in the database. Every function here starts with
-- private.require_admin() (admin, live session, aal2).

-- === Contact inbox ========================================================================================

create function public.admin_contact_messages(p_state text default 'all', p_limit integer default 20, p_offset integer default 0)
 returns table(id uuid, name text, email text, subject text, message text, handled_at timestamp with time zone, created_at timestamp with time zone, total_count bigint)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_admin();
  if coalesce(p_state, 'all') not in ('all', 'unhandled', 'handled') then
    raise exception 'Choose all, unhandled or handled messages' using errcode = '22023';
  end if;
  return query
  select m.id, m.name, m.email::text, m.subject, m.message, m.handled_at, m.created_at, count(*) over ()
  from public.contact_messages m
  where coalesce(p_state, 'all') = 'all'
     or (p_state = 'unhandled' and m.handled_at is null)
     or (p_state = 'handled' and m.handled_at is not null)
  order by m.created_at desc, m.id
  limit least(greatest(coalesce(p_limit, 20), 1), 100) offset greatest(coalesce(p_offset, 0), 0);
end
$function$;
comment on function public.admin_contact_messages(p_state text, p_limit integer, p_offset integer) is 'Admins: the /contact inbox newest first, a page at a time, filtered by handled state; total_count is the size of the filtered inbox.';
revoke execute on function public.admin_contact_messages(p_state text, p_limit integer, p_offset integer) from anon, public;

create function public.admin_set_contact_message_handled(p_message_id uuid, p_handled boolean)
 returns timestamp with time zone
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  result timestamp with time zone;
begin
  perform private.require_admin();
  if p_handled is null then
    raise exception 'Say whether the message is handled' using errcode = '22023';
  end if;
  update public.contact_messages
     set handled_at = case when p_handled then coalesce(handled_at, now()) else null end
   where id = p_message_id
  returning handled_at into result;
  if not found then
    raise exception 'Message not found' using errcode = 'P0002';
  end if;
  return result;
end
$function$;
comment on function public.admin_set_contact_message_handled(p_message_id uuid, p_handled boolean) is 'Admins mark a contact message handled (keeping the first time it was) or back to unhandled; returns handled_at.';
revoke execute on function public.admin_set_contact_message_handled(p_message_id uuid, p_handled boolean) from anon, public;

-- === A user's page ========================================================================================

create function public.admin_user(p_user_id uuid)
 returns table(id uuid, email text, full_name text, user_type text, created_at timestamp with time zone, last_sign_in_at timestamp with time zone, suspended_until timestamp with time zone)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_admin();
  return query
  select p.id, p.email::text, p.full_name, p.user_type, p.created_at, u.last_sign_in_at,
    case when u.banned_until > now() then u.banned_until end
  from public.profiles p
  left join auth.users u on u.id = p.id
  where p.id = p_user_id;
  if not found then
    raise exception 'User not found' using errcode = 'P0002';
  end if;
end
$function$;
comment on function public.admin_user(p_user_id uuid) is 'Admins: one user''s profile with email, last sign-in and, while suspended, until when.';
revoke execute on function public.admin_user(p_user_id uuid) from anon, public;

create function public.admin_advertiser_balance(p_user_id uuid)
 returns table(available numeric, reserved numeric, on_hold numeric, balance numeric)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_admin();
  return query select * from private.advertiser_balance_of(p_user_id);
end
$function$;
comment on function public.admin_advertiser_balance(p_user_id uuid) is 'Admins: what advertiser_balance() shows the given user (the same private.advertiser_balance_of).';
revoke execute on function public.admin_advertiser_balance(p_user_id uuid) from anon, public;

create function public.admin_publisher_balance(p_user_id uuid)
 returns table(pending numeric, available numeric, requested numeric, paid numeric)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_admin();
  return query select * from private.publisher_balance_of(p_user_id);
end
$function$;
comment on function public.admin_publisher_balance(p_user_id uuid) is 'Admins: what publisher_balance() shows the given user (the same private.publisher_balance_of).';
revoke execute on function public.admin_publisher_balance(p_user_id uuid) from anon, public;

create function public.admin_user_sessions(p_user_id uuid)
 returns table(id uuid, created_at timestamp with time zone, refreshed_at timestamp with time zone, aal text, user_agent text, ip text)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_admin();
  -- Read through to_jsonb: the hosted and the local auth.sessions differ in column types (aal, ip).
  return query
  select s.id, s.created_at, (to_jsonb(s) ->> 'refreshed_at')::timestamptz, to_jsonb(s) ->> 'aal',
    to_jsonb(s) ->> 'user_agent', to_jsonb(s) ->> 'ip'
  from auth.sessions s
  where s.user_id = p_user_id
  order by coalesce((to_jsonb(s) ->> 'refreshed_at')::timestamptz, s.created_at) desc
  limit 20;
end
$function$;
comment on function public.admin_user_sessions(p_user_id uuid) is 'Admins: a user''s signed-in sessions (at most 20, most recently used first).';
revoke execute on function public.admin_user_sessions(p_user_id uuid) from anon, public;

create function public.admin_set_user_suspended(p_user_id uuid, p_suspended boolean, p_reason text)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  was_suspended boolean;
begin
  perform private.require_admin();
  if p_suspended is null then
    raise exception 'Say whether to suspend or reinstate' using errcode = '22023';
  end if;
  if coalesce(trim(p_reason), '') = '' then
    raise exception 'Give a reason' using errcode = '22023';
  end if;
  if char_length(trim(p_reason)) > 1000 then
    raise exception 'Keep the reason under 1,000 characters' using errcode = '22023';
  end if;
  if p_user_id = (select auth.uid()) then
    raise exception 'Admins cannot suspend themselves' using errcode = '42501';
  end if;
  select coalesce(u.banned_until > now(), false) into was_suspended from auth.users u where u.id = p_user_id for update;
  if not found then
    raise exception 'User not found' using errcode = 'P0002';
  end if;
  if was_suspended = p_suspended then
    raise exception '%', case when p_suspended then 'This user is already suspended' else 'This user is not suspended' end
      using errcode = '22023';
  end if;
  if p_suspended then
    -- As GoTrue's own ban (ban_duration 876000h): sign-in and token refresh refuse the user, and every session ends.
    update auth.users set banned_until = now() + interval '100 years' where id = p_user_id;
    delete from auth.sessions where user_id = p_user_id;
  else
    update auth.users set banned_until = null where id = p_user_id;
  end if;
  perform private.log_moderation_event('profile', p_user_id,
    case when p_suspended then 'active' else 'suspended' end,
    case when p_suspended then 'suspended' else 'active' end, p_reason);
end
$function$;
comment on function public.admin_set_user_suspended(p_user_id uuid, p_suspended boolean, p_reason text) is 'Admins suspend (sign-in refused, every session ended, money functions refused) or reinstate a user, with a reason in the audit log.';
revoke execute on function public.admin_set_user_suspended(p_user_id uuid, p_suspended boolean, p_reason text) from anon, public;

create or replace function public.session_is_live()
 returns boolean
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  sid text := (select auth.jwt()) ->> 'session_id';
begin
  -- Visitors have no session, and the service role (edge functions, jobs) is trusted by construction.
  if (select auth.role()) is distinct from 'authenticated' then
    return true;
  end if;
  if sid is null or sid !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return false;
  end if;
  -- not_after (hosted GoTrue's time-boxed sessions) is read through to_jsonb: the local table has no such column.
  -- A suspended user (banned_until ahead) has no live session even if a token was issued before the suspension.
  return exists (
    select 1 from auth.sessions s
    where s.id = sid::uuid and s.user_id = (select auth.uid())
      and coalesce((to_jsonb(s) ->> 'not_after')::timestamptz, 'infinity') > now())
    and not exists (select 1 from auth.users u where u.id = (select auth.uid()) and u.banned_until > now());
end
$function$;
comment on function public.session_is_live() is 'Whether the signed-in caller''s session (the JWT''s session_id) still exists in auth.sessions and the caller is not suspended: false after a sign-out, a password change elsewhere, refresh-token reuse or a suspension. Policies on money tables and every admin and money function rely on it.';
revoke execute on function public.session_is_live() from public;

-- === Money: search, filter, export =========================================================================

create function private.check_admin_dates(p_from date, p_to date)
 returns void
 language plpgsql
 immutable
 set search_path to ''
as $function$
begin
  if p_from is not null and p_to is not null and p_from > p_to then
    raise exception 'The start date must be on or before the end date' using errcode = '22023';
  end if;
end
$function$;
comment on function private.check_admin_dates(p_from date, p_to date) is 'Internal: refuses a date range that ends before it starts (admin money searches).';
revoke execute on function private.check_admin_dates(p_from date, p_to date) from public;

create function public.admin_ledger(p_search text default null, p_type text default null, p_status text default null, p_from date default null, p_to date default null, p_limit integer default 20, p_offset integer default 0)
 returns table(id uuid, created_at timestamp with time zone, user_id uuid, user_email text, user_name text, amount numeric, type text, status text, description text, reference text, available_at timestamp with time zone, total_count bigint)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  q text := nullif(trim(p_search), '');
begin
  perform private.require_admin();
  perform private.check_admin_dates(p_from, p_to);
  if p_type is not null and p_type <> all (enum_range(null::public.transaction_type)::text[]) then
    raise exception 'Choose a transaction type from the list' using errcode = '22023';
  end if;
  if p_status is not null and p_status <> all (enum_range(null::public.transaction_status)::text[]) then
    raise exception 'Choose a status from the list' using errcode = '22023';
  end if;
  return query
  select t.id, t.created_at, t.user_id, p.email::text, p.full_name, t.amount, t.type, t.status, t.description,
    t.reference, t.available_at, count(*) over ()
  from public.wallet_transactions t
  join public.profiles p on p.id = t.user_id
  where (q is null or p.email ilike '%' || q || '%' or p.full_name ilike '%' || q || '%'
         or t.reference ilike '%' || q || '%' or t.description ilike '%' || q || '%')
    and (p_type is null or t.type = p_type)
    and (p_status is null or t.status = p_status)
    and (p_from is null or t.created_at >= p_from::timestamp at time zone 'utc')
    and (p_to is null or t.created_at < (p_to + 1)::timestamp at time zone 'utc')
  order by t.created_at desc, t.id desc
  limit least(greatest(coalesce(p_limit, 20), 1), 10000) offset greatest(coalesce(p_offset, 0), 0);
end
$function$;
comment on function public.admin_ledger(p_search text, p_type text, p_status text, p_from date, p_to date, p_limit integer, p_offset integer) is 'Admins: ledger rows newest first, searched by user email or name, reference or description, filtered by type, status and UTC date range; a page at a time, or up to 10,000 rows for a CSV export; total_count is the number of matching rows.';
revoke execute on function public.admin_ledger(p_search text, p_type text, p_status text, p_from date, p_to date, p_limit integer, p_offset integer) from anon, public;

create function public.admin_deposits(p_search text default null, p_status text default null, p_from date default null, p_to date default null, p_limit integer default 20, p_offset integer default 0)
 returns table(id uuid, created_at timestamp with time zone, user_id uuid, user_email text, user_name text, amount numeric, status text, stripe_session_id text, stripe_payment_intent text, failure_reason text, completed_at timestamp with time zone, total_count bigint)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  q text := nullif(trim(p_search), '');
begin
  perform private.require_admin();
  perform private.check_admin_dates(p_from, p_to);
  if p_status is not null and p_status <> all (enum_range(null::public.deposit_status)::text[]) then
    raise exception 'Choose a status from the list' using errcode = '22023';
  end if;
  return query
  select d.id, d.created_at, d.user_id, p.email::text, p.full_name, d.amount, d.status::text, d.stripe_session_id,
    d.stripe_payment_intent, d.failure_reason, d.completed_at, count(*) over ()
  from public.deposits d
  join public.profiles p on p.id = d.user_id
  where (q is null or p.email ilike '%' || q || '%' or p.full_name ilike '%' || q || '%'
         or d.stripe_session_id ilike '%' || q || '%' or d.stripe_payment_intent ilike '%' || q || '%')
    and (p_status is null or d.status::text = p_status)
    and (p_from is null or d.created_at >= p_from::timestamp at time zone 'utc')
    and (p_to is null or d.created_at < (p_to + 1)::timestamp at time zone 'utc')
  order by d.created_at desc, d.id desc
  limit least(greatest(coalesce(p_limit, 20), 1), 10000) offset greatest(coalesce(p_offset, 0), 0);
end
$function$;
comment on function public.admin_deposits(p_search text, p_status text, p_from date, p_to date, p_limit integer, p_offset integer) is 'Admins: deposits newest first, searched by user email or name or Stripe reference, filtered by status and UTC date range; a page at a time, or up to 10,000 rows for a CSV export; total_count is the number of matching rows.';
revoke execute on function public.admin_deposits(p_search text, p_status text, p_from date, p_to date, p_limit integer, p_offset integer) from anon, public;
