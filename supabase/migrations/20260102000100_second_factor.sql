-- The second factor, enforced by the database (Supabase's MFA guide), not only by the browser.
-- * Admins: every admin policy and function goes through public.is_admin(), which from now on is true only
--   in an aal2 session. An admin signed in with the password alone is, to the database, nobody special.
--   Since aal2 exists only after a verified TOTP code, an admin without a factor has to set one up first.
-- * Everyone else: functions that move money or rights call private.require_aal2(), which refuses an aal1
--   session of a user who has a verified factor (a stolen password is not enough to move their money).
-- * Restrictive policies put the admin-only tables behind aal2 for admins as a second fence, so a future
--   permissive policy written without is_admin() cannot open them to an aal1 admin session.

create function private.session_aal()
returns text
language sql stable
set search_path = ''
as $$
  select coalesce((select auth.jwt()) ->> 'aal', 'aal1')
$$;
comment on function private.session_aal() is 'The assurance level of the calling session (aal1 when the token says nothing).';
revoke execute on function private.session_aal() from public, anon, authenticated, service_role;

create function private.has_verified_factor(p_user_id uuid)
returns boolean
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  -- plpgsql: auth.mfa_factors is created by the auth server (hosted GoTrue, or supabase/local/auth), and the
  -- body is only resolved when called. status is an enum on hosted Supabase and text locally: compare as text.
  return exists (select 1 from auth.mfa_factors f where f.user_id = p_user_id and f.status::text = 'verified');
end
$$;
comment on function private.has_verified_factor(uuid) is 'Whether the user has finished setting up a TOTP factor.';
revoke execute on function private.has_verified_factor(uuid) from public, anon, authenticated, service_role;

create function private.require_aal2()
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
  if private.session_aal() <> 'aal2' and private.has_verified_factor((select auth.uid())) then
    raise exception 'Enter your two-factor code to do this' using errcode = '42501',
      hint = 'Sign in again and enter the code from your authenticator app.';
  end if;
end
$$;
comment on function private.require_aal2() is
  'First line of every non-admin function that moves money or rights: users with a verified factor must be at aal2.';
revoke execute on function private.require_aal2() from public, anon, authenticated, service_role;

create or replace function public.is_admin()
returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select private.session_aal() = 'aal2'
     and exists (select 1 from public.profiles where id = (select auth.uid()) and user_type = 'admin')
$$;
comment on function public.is_admin() is
  'Whether the caller is an admin in a two-factor (aal2) session. Every admin policy and admin function relies on it, so an admin signed in with the password alone has no admin rights.';

create function public.is_admin_account()
returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.profiles where id = (select auth.uid()) and user_type = 'admin')
$$;
comment on function public.is_admin_account() is
  'Whether the caller''s account is an admin account, whatever the session''s assurance level (the SPA uses it to ask for the second factor).';
revoke execute on function public.is_admin_account() from public, anon, authenticated;
grant execute on function public.is_admin_account() to authenticated;

create or replace function public.require_admin()
returns void
language plpgsql stable
security definer
set search_path = ''
as $$
begin
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
  'Raises unless the caller is an admin in an aal2 session; the first line of every admin function.';

-- Admin-only tables: restrictive, so they stay behind aal2 for admins whatever permissive policy is added later.
create policy "Admins read the audit log only with two factors"
  on public.moderation_events as restrictive for select to authenticated
  using ((select auth.jwt() ->> 'aal') = 'aal2');
create policy "Admins read contact messages only with two factors"
  on public.contact_messages as restrictive for select to authenticated
  using ((select auth.jwt() ->> 'aal') = 'aal2');
create policy "Admins handle contact messages only with two factors"
  on public.contact_messages as restrictive for update to authenticated
  using ((select auth.jwt() ->> 'aal') = 'aal2')
  with check ((select auth.jwt() ->> 'aal') = 'aal2');
create policy "Admins delete contact messages only with two factors"
  on public.contact_messages as restrictive for delete to authenticated
  using ((select auth.jwt() ->> 'aal') = 'aal2');

-- Publishers asking for money with a verified factor must be at aal2 (the rest of request_payout is unchanged).
create or replace function public.request_payout(p_amount numeric)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  open_requests numeric;
  r public.payout_requests;
begin
  perform private.require_aal2();
  if not exists (select 1 from public.profiles where id = me and user_type = 'publisher') then
    raise exception 'Only publishers can request payouts' using errcode = '42501';
  end if;
  if p_amount is null or p_amount < 50 then
    raise exception 'The minimum payout is 50 credits' using errcode = '22023';
  end if;
  if p_amount <> round(p_amount, 2) then
    raise exception 'Use at most two decimals' using errcode = '22023';
  end if;
  perform public.lock_wallet(me);
  select coalesce(sum(amount), 0) into open_requests from public.payout_requests
    where publisher_id = me and status = 'requested';
  if public.wallet_available(me) - open_requests < p_amount then
    raise exception 'You can only withdraw available earnings' using errcode = '22023';
  end if;
  insert into public.payout_requests (publisher_id, amount) values (me, p_amount) returning * into r;
  return jsonb_build_object('id', r.id, 'amount', r.amount, 'status', r.status);
end
$$;
