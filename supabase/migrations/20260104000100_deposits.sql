-- Deposits: money in through Stripe Checkout (locally, the embedded backend's test checkout). One row per
-- checkout session: pending while the advertiser is at the checkout, then completed (credited through the
-- ledger exactly once), failed or expired, as Stripe's signed webhook says. Browser code only reads its
-- own rows; the edge functions write through the service-role functions below.

create type public.deposit_status as enum ('pending', 'completed', 'failed', 'expired');
comment on type public.deposit_status is
  'Where a deposit stands: pending (checkout open or payment processing), completed (credited), failed (payment failed), expired (checkout closed unpaid).';

create table public.deposits (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  amount numeric(12, 2) not null check (amount >= 10 and amount <= 10000),
  currency text not null default 'usd' check (currency = 'usd'),
  status public.deposit_status not null default 'pending',
  stripe_session_id text not null unique check (btrim(stripe_session_id) <> ''),
  stripe_payment_intent text,
  transaction_id uuid references public.wallet_transactions (id),
  failure_reason text,
  expires_at timestamptz,
  completed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint deposits_completed_has_transaction check ((status = 'completed') = (transaction_id is not null))
);
comment on table public.deposits is
  'One row per checkout session (Stripe reference in stripe_session_id). Completed rows point at their ledger row; the balance still comes from the ledger alone.';
create index deposits_user_created_idx on public.deposits (user_id, created_at desc);
create index deposits_created_idx on public.deposits (created_at desc);
create index deposits_transaction_idx on public.deposits (transaction_id) where transaction_id is not null;

alter table public.deposits enable row level security;

create policy "Users can read their own deposits"
  on public.deposits for select to authenticated
  using ((select auth.uid()) = user_id);
create policy "Admins can read every deposit"
  on public.deposits for select to authenticated
  using ((select public.is_admin()));
-- No insert, update or delete policy: nobody writes deposits through the API. The grants go too, so a
-- mistaken policy later still cannot open them.
revoke insert, update, delete, truncate on public.deposits from anon, authenticated;

create trigger deposits_set_updated_at before update on public.deposits
  for each row execute function public.set_updated_at();
create trigger deposits_immutable before update on public.deposits
  for each row execute function public.forbid_column_changes('user_id', 'amount', 'currency', 'stripe_session_id');

-- Deposits credited before this table existed (local databases with demo data) get their row, so the
-- admin money view lists every deposit with its reference.
insert into public.deposits (user_id, amount, status, stripe_session_id, transaction_id, completed_at, created_at)
select t.user_id, t.amount, 'completed', t.reference, t.id, t.created_at, t.created_at
from public.wallet_transactions t
where t.type = 'deposit' and t.status = 'completed' and t.reference is not null and t.amount between 10 and 10000
on conflict (stripe_session_id) do nothing;

-- create-checkout-session: records the session it just created, so the wallet shows the deposit as pending.
create function public.open_deposit(p_user_id uuid, p_amount numeric, p_session_id text, p_expires_at timestamptz default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  d public.deposits;
begin
  if p_session_id is null or btrim(p_session_id) = '' then
    raise exception 'A payment reference is required' using errcode = '22023';
  end if;
  if p_amount is null or p_amount < 10 or p_amount > 10000 then
    raise exception 'Deposits must be between 10 and 10,000 credits' using errcode = '22023';
  end if;
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
$$;
comment on function public.open_deposit(uuid, numeric, text, timestamptz) is
  'create-checkout-session, service role only: a pending deposit for a checkout session an advertiser is about to pay. Moves no money.';
revoke execute on function public.open_deposit(uuid, numeric, text, timestamptz) from public, anon, authenticated;
grant execute on function public.open_deposit(uuid, numeric, text, timestamptz) to service_role;

-- The one place a deposit becomes money. The deposit row lock makes concurrent webhook deliveries queue;
-- the second finds it completed. Unknown sessions and events whose user or amount differ from what was
-- recorded credit nothing and say so, for the webhook to log.
-- It also queues the deposit receipt in the same transaction (once per session, however often the webhook
-- replays), through the notification queue every other email takes; credits made outside the checkout
-- (seed data, support) pass p_notify => false.
create function public.complete_deposit(
  p_session_id text, p_user_id uuid, p_amount numeric, p_payment_intent text default null, p_notify boolean default true
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  d public.deposits;
  tx uuid;
  new_balance numeric;
begin
  select * into d from public.deposits where stripe_session_id = p_session_id for update;
  if not found then
    return jsonb_build_object('result', 'unknown_session');
  end if;
  if p_user_id is distinct from d.user_id then
    return jsonb_build_object('result', 'user_mismatch', 'deposit_id', d.id);
  end if;
  if p_amount is distinct from d.amount then
    return jsonb_build_object('result', 'amount_mismatch', 'deposit_id', d.id);
  end if;
  if d.status = 'completed' then
    return jsonb_build_object('result', 'already_credited', 'deposit_id', d.id, 'user_id', d.user_id,
      'amount', d.amount, 'transaction_id', d.transaction_id);
  end if;
  -- A failed or expired deposit that Stripe later reports paid is still credited: the money was taken.
  tx := public.post_ledger(d.user_id, d.amount, 'deposit', 'completed', 'Deposit', d.stripe_session_id);
  if tx is null then
    -- The ledger already has this reference (credited before the deposits table existed).
    select id into tx from public.wallet_transactions where type = 'deposit' and reference = d.stripe_session_id;
  end if;
  update public.deposits
    set status = 'completed', transaction_id = tx, completed_at = now(), failure_reason = null,
        stripe_payment_intent = coalesce(p_payment_intent, stripe_payment_intent)
    where id = d.id;
  new_balance := (select w.balance from public.wallet_balances w where w.user_id = d.user_id);
  if p_notify then
    perform private.enqueue_notification(d.user_id, 'deposit_receipt',
      jsonb_build_object('amount', d.amount, 'reference', d.stripe_session_id, 'balance', new_balance),
      'deposit_receipt:' || d.stripe_session_id);
  end if;
  return jsonb_build_object('result', 'credited', 'deposit_id', d.id, 'user_id', d.user_id, 'amount', d.amount,
    'transaction_id', tx, 'balance', new_balance);
end
$$;
comment on function public.complete_deposit(text, uuid, numeric, text, boolean) is
  'payments-webhook, service role only: credits a paid checkout session once (result credited) and queues its receipt, whatever the replays (already_credited); unknown_session, user_mismatch and amount_mismatch credit nothing.';
revoke execute on function public.complete_deposit(text, uuid, numeric, text, boolean) from public, anon, authenticated;
grant execute on function public.complete_deposit(text, uuid, numeric, text, boolean) to service_role;

-- payments-webhook: a checkout that expired unpaid, or an asynchronous payment that failed.
create function public.close_deposit(p_session_id text, p_status public.deposit_status, p_reason text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  d public.deposits;
begin
  if p_status is null or p_status not in ('failed', 'expired') then
    raise exception 'A deposit can only be closed as failed or expired' using errcode = '22023';
  end if;
  select * into d from public.deposits where stripe_session_id = p_session_id for update;
  if not found then
    return jsonb_build_object('result', 'unknown_session');
  end if;
  -- Only a pending deposit closes: a late or reordered event never undoes a credit.
  if d.status <> 'pending' then
    return jsonb_build_object('result', 'unchanged', 'deposit_id', d.id, 'status', d.status);
  end if;
  update public.deposits set status = p_status, failure_reason = p_reason where id = d.id;
  return jsonb_build_object('result', 'closed', 'deposit_id', d.id, 'status', p_status);
end
$$;
comment on function public.close_deposit(text, public.deposit_status, text) is
  'payments-webhook, service role only: marks a pending deposit failed or expired; completed ones never change.';
revoke execute on function public.close_deposit(text, public.deposit_status, text) from public, anon, authenticated;
grant execute on function public.close_deposit(text, public.deposit_status, text) to service_role;

-- A payment made outside the checkout (seed data, support): recorded as a deposit and credited through
-- complete_deposit, so every credit takes the same path and lands in the same table.
create or replace function public.credit_deposit(p_user_id uuid, p_amount numeric, p_reference text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  r jsonb;
begin
  if p_reference is null or btrim(p_reference) = '' then
    raise exception 'A payment reference is required' using errcode = '22023';
  end if;
  if p_amount is null or p_amount < 10 or p_amount > 10000 then
    raise exception 'Deposits must be between 10 and 10,000 credits' using errcode = '22023';
  end if;
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
$$;
comment on function public.credit_deposit(uuid, numeric, text) is
  'Service role only: credits a payment made outside the checkout once per reference (seed, support); replays return the same answer.';
revoke execute on function public.credit_deposit(uuid, numeric, text) from public, anon, authenticated;
grant execute on function public.credit_deposit(uuid, numeric, text) to service_role;
