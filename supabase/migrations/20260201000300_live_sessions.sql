-- Live sessions for money and rights (issue 21). An access token is a signed JWT that stays valid until it
-- expires (up to an hour), so signing out other devices, changing the password or the refresh-token reuse
-- detection ended the session in auth.sessions while a stolen access token still read wallets and called
-- request_payout: the database checked only the signature. Money and admin functions now also check that
-- the token's session (its session_id claim) still exists in auth.sessions — the table GoTrue keeps, on
-- hosted Supabase and in supabase/local/auth alike — and say so in words when it does not.

-- plpgsql: auth.sessions belongs to the auth server, and the body is only resolved when called.
create function public.session_is_live()
returns boolean
language plpgsql stable
security definer
set search_path = ''
as $$
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
  return exists (
    select 1 from auth.sessions s
    where s.id = sid::uuid and s.user_id = (select auth.uid())
      and coalesce((to_jsonb(s) ->> 'not_after')::timestamptz, 'infinity') > now());
end
$$;
comment on function public.session_is_live() is
  'Whether the signed-in caller''s session (the JWT''s session_id) still exists in auth.sessions: false after a sign-out, a password change elsewhere or refresh-token reuse. Policies on money tables and every admin and money function rely on it.';
revoke execute on function public.session_is_live() from public, anon, authenticated;
grant execute on function public.session_is_live() to anon, authenticated, service_role;

create function private.require_live_session()
returns void
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  if not public.session_is_live() then
    raise exception 'Your session has ended. Sign in again.' using errcode = '42501',
      hint = 'You signed out on this device or everywhere, or your password changed; sign in to continue.';
  end if;
end
$$;
comment on function private.require_live_session() is
  'First line of every function that moves money or uses admin rights: refuses a token whose session has ended.';
revoke execute on function private.require_live_session() from public, anon, authenticated, service_role;

-- Non-admin money functions (request_payout, open_dispute) start with require_aal2.
create or replace function private.require_aal2()
returns void
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  -- The service role (edge functions, jobs) has no session to raise; it is trusted by construction.
  if (select auth.role()) = 'service_role' then
    return;
  end if;
  perform private.require_live_session();
  if private.session_aal() <> 'aal2' and private.has_verified_factor((select auth.uid())) then
    raise exception 'Enter your two-factor code to do this' using errcode = '42501',
      hint = 'Sign in again and enter the code from your authenticator app.';
  end if;
end
$$;
comment on function private.require_aal2() is
  'First line of every non-admin function that moves money or rights: the session must still exist, and users with a verified factor must be at aal2.';

-- Every admin policy and function goes through is_admin() and require_admin().
create or replace function public.is_admin()
returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select private.session_aal() = 'aal2'
     and exists (select 1 from public.profiles where id = (select auth.uid()) and user_type = 'admin')
     and public.session_is_live()
$$;
comment on function public.is_admin() is
  'Whether the caller is an admin in a live two-factor (aal2) session. Every admin policy and admin function relies on it, so an admin signed in with the password alone, or whose session ended, has no admin rights.';

create or replace function public.require_admin()
returns void
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  perform private.require_live_session();
  if public.is_admin() then
    return;
  end if;
  if public.is_admin_account() then
    raise exception 'Enter your two-factor code to use admin tools' using errcode = '42501',
      hint = 'Admins need a verified authenticator app and a session signed in with its code (aal2).';
  end if;
  raise exception 'Only an admin can do this' using errcode = '42501';
end
$$;
comment on function public.require_admin() is
  'Raises unless the caller is an admin in a live aal2 session; the first line of every admin function.';

-- The balances the screens show and the subscriber lists (personal data) answer live sessions only.
create or replace function public.advertiser_balance()
returns table (available numeric, reserved numeric, on_hold numeric, balance numeric)
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  perform private.require_live_session();
  return query select * from private.advertiser_balance_of((select auth.uid()));
end
$$;

create or replace function public.publisher_balance()
returns table (pending numeric, available numeric, requested numeric, paid numeric)
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  perform private.require_live_session();
  return query select * from private.publisher_balance_of((select auth.uid()));
end
$$;

create or replace function private.check_subscriber_reader(p_campaign_id uuid)
returns void
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  if (select auth.uid()) is null and auth.role() <> 'service_role' then
    raise exception 'Sign in to see subscribers' using errcode = '42501';
  end if;
  perform private.require_live_session();
  if not public.is_admin() and auth.role() <> 'service_role'
     and not exists (select 1 from public.campaigns where id = p_campaign_id and advertiser_id = (select auth.uid())) then
    raise exception 'You can only see subscribers of your own campaigns' using errcode = '42501';
  end if;
end
$$;

-- REST reads of money tables: restrictive, so no permissive policy written later can skip the check.
create policy "Money rows are read only in a live session"
  on public.wallet_balances as restrictive for select to authenticated
  using ((select public.session_is_live()));
create policy "Ledger rows are read only in a live session"
  on public.wallet_transactions as restrictive for select to authenticated
  using ((select public.session_is_live()));
create policy "Payout requests are read only in a live session"
  on public.payout_requests as restrictive for select to authenticated
  using ((select public.session_is_live()));
create policy "Deposits are read only in a live session"
  on public.deposits as restrictive for select to authenticated
  using ((select public.session_is_live()));

-- Webhook endpoints receive every new subscriber's address: pointing one at another URL, or taking its
-- signing secret, is a right that matters as much as money.
create or replace function public.create_webhook_endpoint(p_url text, p_campaign_id uuid default null, p_description text default null)
returns table (id uuid, secret text)
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

create or replace function public.rotate_webhook_secret(p_endpoint_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
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
$$;

create policy "Webhook endpoints are changed only in a live session"
  on public.webhook_endpoints as restrictive for update to authenticated
  using ((select public.session_is_live()))
  with check ((select public.session_is_live()));
create policy "Webhook endpoints are deleted only in a live session"
  on public.webhook_endpoints as restrictive for delete to authenticated
  using ((select public.session_is_live()));
