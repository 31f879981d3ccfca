-- Deposit bounds written once in SQL's logic (issue 22, "one rule, one place"): both functions that open or credit
-- a deposit repeated 10 and 10,000 and the message; they call private.require_deposit_amount now. The SPA and the
-- edge function read the same bounds from supabase/functions/_shared/rules/deposit.ts, and
-- supabase/tests/rule-bounds.test.ts pins this function's answers and message, and the table's check, to that
-- module. The table's check (deposits_amount_check) stays a literal declaration: a check constraint runs with the
-- inserting role's rights, and the service role may not execute functions in private.

create function private.deposit_amount_allowed(p_amount numeric)
 returns boolean
 language sql
 immutable
 set search_path to ''
as $function$
  select p_amount is not null and p_amount >= 10 and p_amount <= 10000
$function$;
comment on function private.deposit_amount_allowed(p_amount numeric) is 'Internal: the deposit bounds (10 to 10,000 credits) for the functions that open or credit a deposit (the deposits table states them in its check too, pinned by the same test).';
revoke execute on function private.deposit_amount_allowed(p_amount numeric) from public;

create function private.require_deposit_amount(p_amount numeric)
 returns void
 language plpgsql
 immutable
 set search_path to ''
as $function$
begin
  if not private.deposit_amount_allowed(p_amount) then
    raise exception 'Deposits must be between 10 and 10,000 credits' using errcode = '22023';
  end if;
end
$function$;
comment on function private.require_deposit_amount(p_amount numeric) is 'Internal: refuses a deposit amount outside the bounds with the message people read (open_deposit, credit_deposit).';
revoke execute on function private.require_deposit_amount(p_amount numeric) from public;

create or replace function public.credit_deposit(p_user_id uuid, p_amount numeric, p_reference text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  r jsonb;
begin
  if p_reference is null or btrim(p_reference) = '' then
    raise exception 'A payment reference is required' using errcode = '22023';
  end if;
  perform private.require_deposit_amount(p_amount);
  if not exists (select 1 from public.profiles where id = p_user_id) then
    raise exception 'User not found' using errcode = 'P0002';
  end if;
  insert into public.deposits (user_id, amount, stripe_session_id)
  values (p_user_id, p_amount, p_reference)
  on conflict (stripe_session_id) do nothing;
  r := public.complete_deposit(p_reference, p_user_id, p_amount, null, false);
  if r ->> 'result' in ('user_mismatch', 'amount_mismatch') then
    raise exception 'This payment was already credited differently' using errcode = '23505';
  end if;
  return jsonb_build_object('transaction_id', r -> 'transaction_id', 'user_id', p_user_id, 'amount', p_amount,
    'reference', p_reference);
end
$function$;

create or replace function public.open_deposit(p_user_id uuid, p_amount numeric, p_session_id text, p_expires_at timestamp with time zone default null::timestamp with time zone)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  d public.deposits;
begin
  if p_session_id is null or btrim(p_session_id) = '' then
    raise exception 'A payment reference is required' using errcode = '22023';
  end if;
  perform private.require_deposit_amount(p_amount);
  if p_amount <> round(p_amount, 2) then
    raise exception 'Deposits can have at most two decimals' using errcode = '22023';
  end if;
  if not exists (select 1 from public.profiles where id = p_user_id) then
    raise exception 'User not found' using errcode = 'P0002';
  end if;
  if not exists (select 1 from public.profiles where id = p_user_id and user_type = 'advertiser') then
    raise exception 'Only advertisers can add funds to a wallet' using errcode = '42501';
  end if;
  insert into public.deposits (user_id, amount, stripe_session_id, expires_at)
  values (p_user_id, p_amount, p_session_id, p_expires_at)
  on conflict (stripe_session_id) do nothing
  returning * into d;
  if not found then
    -- A retried request for the same session is fine; the same session for other terms is not.
    select * into d from public.deposits where stripe_session_id = p_session_id;
    if d.user_id <> p_user_id or d.amount <> p_amount then
      raise exception 'This payment reference belongs to another deposit' using errcode = '23505';
    end if;
  end if;
  return jsonb_build_object('id', d.id, 'status', d.status, 'amount', d.amount, 'stripe_session_id', d.stripe_session_id);
end
$function$;
