-- Wallets: the ledger (wallet_transactions) and the balance it adds up to (wallet_balances).
-- Balance = sum of the user's completed ledger rows, always. Only definer functions write either table;
-- browser code reads its own rows. Pending holds (advertisers) and pending earnings (publishers) are
-- ledger rows too: they count once the 7-day screening completes them (settle_matured_holds).

create table public.wallet_balances (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null unique references public.profiles (id) on delete cascade,
  balance numeric(12, 2) not null default 0 check (balance >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.wallet_balances is
  'One wallet per user; balance is the sum of the user''s completed ledger rows and changes only through money functions.';

create table public.wallet_transactions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  amount numeric(12, 2) not null,
  type text not null check (type in ('bonus', 'deposit', 'hold', 'release', 'refund', 'earning', 'payout', 'credit', 'debit')),
  status text not null default 'completed' check (status in ('pending', 'completed', 'failed', 'canceled')),
  description text,
  reference text,
  campaign_id uuid,
  subscription_id uuid,
  available_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint wallet_transactions_type_reference_key unique (type, reference)
);
comment on table public.wallet_transactions is
  'The ledger. Every money event is one row; reference is unique per type so each event happens once. Holds are negative and pending until screening ends; earnings are positive and pending until then.';
create index wallet_transactions_user_created_idx on public.wallet_transactions (user_id, created_at desc);
create index wallet_transactions_pending_idx on public.wallet_transactions (available_at) where status = 'pending';
create index wallet_transactions_subscription_idx on public.wallet_transactions (subscription_id) where subscription_id is not null;

alter table public.wallet_balances enable row level security;
alter table public.wallet_transactions enable row level security;

create policy "Users can read their own wallet"
  on public.wallet_balances for select to authenticated
  using ((select auth.uid()) = user_id);
create policy "Admins can read every wallet"
  on public.wallet_balances for select to authenticated
  using ((select public.is_admin()));
create policy "Users can read their own transactions"
  on public.wallet_transactions for select to authenticated
  using ((select auth.uid()) = user_id);
create policy "Admins can read every transaction"
  on public.wallet_transactions for select to authenticated
  using ((select public.is_admin()));

create trigger wallet_balances_set_updated_at before update on public.wallet_balances
  for each row execute function public.set_updated_at();
create trigger wallet_transactions_set_updated_at before update on public.wallet_transactions
  for each row execute function public.set_updated_at();
create trigger wallet_balances_immutable before update on public.wallet_balances
  for each row execute function public.forbid_column_changes('user_id');
create trigger wallet_transactions_immutable before update on public.wallet_transactions
  for each row execute function public.forbid_column_changes('user_id', 'amount', 'type', 'reference');

-- What screens read (SPEC: "select wallets balance by user_id"): balance, what is on hold, what is spendable.
create view public.wallets with (security_invoker = true) as
  select
    w.id,
    w.user_id,
    w.balance,
    coalesce(h.held, 0)::numeric(12, 2) as held,
    (w.balance - coalesce(h.held, 0))::numeric(12, 2) as available,
    coalesce(e.pending_earnings, 0)::numeric(12, 2) as pending_earnings,
    w.created_at,
    w.updated_at
  from public.wallet_balances w
  left join lateral (
    select -sum(t.amount) as held from public.wallet_transactions t
    where t.user_id = w.user_id and t.type = 'hold' and t.status = 'pending'
  ) h on true
  left join lateral (
    select sum(t.amount) as pending_earnings from public.wallet_transactions t
    where t.user_id = w.user_id and t.type = 'earning' and t.status = 'pending'
  ) e on true;
comment on view public.wallets is
  'Wallet summary for screens: balance, held (pending holds), available (balance minus holds) and pending earnings. Invoker rights: the wallet_balances policies apply.';

-- Creates the wallet if needed and locks it: every money function starts here so concurrent calls queue.
create function public.lock_wallet(p_user_id uuid)
returns public.wallet_balances
language plpgsql
security definer
set search_path = ''
as $$
declare
  w public.wallet_balances;
begin
  insert into public.wallet_balances (user_id) values (p_user_id) on conflict (user_id) do nothing;
  select * into w from public.wallet_balances where user_id = p_user_id for update;
  return w;
end
$$;
comment on function public.lock_wallet(uuid) is 'Internal: creates the wallet if missing and row-locks it for the rest of the transaction.';
revoke execute on function public.lock_wallet(uuid) from public, anon, authenticated, service_role;

-- The one writer of ledger rows. A completed row moves the balance in the same statement pair; a
-- duplicate (type, reference) returns null and changes nothing.
create function public.post_ledger(
  p_user_id uuid, p_amount numeric, p_type text, p_status text, p_description text, p_reference text,
  p_campaign_id uuid default null, p_subscription_id uuid default null, p_available_at timestamptz default null
)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  new_id uuid;
begin
  perform public.lock_wallet(p_user_id);
  insert into public.wallet_transactions
    (user_id, amount, type, status, description, reference, campaign_id, subscription_id, available_at)
  values (p_user_id, p_amount, p_type, p_status, p_description, p_reference, p_campaign_id, p_subscription_id, p_available_at)
  on conflict (type, reference) do nothing
  returning id into new_id;
  if new_id is not null and p_status = 'completed' then
    update public.wallet_balances set balance = balance + p_amount where user_id = p_user_id;
  end if;
  if new_id is not null then
    perform public.refresh_campaign_funding(p_user_id);
  end if;
  return new_id;
end
$$;
comment on function public.post_ledger(uuid, numeric, text, text, text, text, uuid, uuid, timestamptz) is
  'Internal: appends one ledger row and, when completed, applies it to the balance. Idempotent per (type, reference).';
revoke execute on function public.post_ledger(uuid, numeric, text, text, text, text, uuid, uuid, timestamptz)
  from public, anon, authenticated, service_role;

-- Moves a pending row to completed (applying it) or canceled (dropping it); the balance follows.
create function public.finish_ledger(p_transaction_id uuid, p_status text, p_description text default null)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  t public.wallet_transactions;
begin
  select * into t from public.wallet_transactions where id = p_transaction_id;
  if not found then
    return false;
  end if;
  perform public.lock_wallet(t.user_id);
  update public.wallet_transactions
    set status = p_status, description = coalesce(p_description, description)
    where id = p_transaction_id and status = 'pending'
    returning * into t;
  if not found then
    return false;
  end if;
  if p_status = 'completed' then
    update public.wallet_balances set balance = balance + t.amount where user_id = t.user_id;
  end if;
  perform public.refresh_campaign_funding(t.user_id);
  return true;
end
$$;
comment on function public.finish_ledger(uuid, text, text) is
  'Internal: completes or cancels one pending ledger row exactly once, keeping balance = sum of completed rows.';
revoke execute on function public.finish_ledger(uuid, text, text) from public, anon, authenticated, service_role;

create function public.wallet_available(p_user_id uuid)
returns numeric
language sql stable
security definer
set search_path = ''
as $$
  select coalesce((select balance from public.wallet_balances where user_id = p_user_id), 0)
       + coalesce((select sum(amount) from public.wallet_transactions
                   where user_id = p_user_id and type = 'hold' and status = 'pending'), 0)
$$;
comment on function public.wallet_available(uuid) is 'Internal: balance minus pending holds — what an advertiser can still spend.';
revoke execute on function public.wallet_available(uuid) from public, anon, authenticated, service_role;

create function public.ensure_wallet_exists(p_user_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  w public.wallet_balances;
begin
  if p_user_id is null or (auth.role() is distinct from 'service_role' and p_user_id is distinct from (select auth.uid())) then
    raise exception 'You can only open your own wallet' using errcode = '42501';
  end if;
  insert into public.wallet_balances (user_id) values (p_user_id) on conflict (user_id) do nothing;
  select * into w from public.wallet_balances where user_id = p_user_id;
  return jsonb_build_object('id', w.id, 'user_id', w.user_id, 'balance', w.balance);
end
$$;
comment on function public.ensure_wallet_exists(uuid) is
  'SPEC §7: creates the caller''s wallet on first login (balance 0, no money moves) and returns it.';
revoke execute on function public.ensure_wallet_exists(uuid) from public, anon, authenticated;
grant execute on function public.ensure_wallet_exists(uuid) to authenticated, service_role;

create function public.increment_wallet_balance(user_id uuid, amount numeric)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  new_id uuid;
begin
  if amount is null or amount <= 0 then
    raise exception 'Amount must be positive' using errcode = '22023';
  end if;
  new_id := public.post_ledger(increment_wallet_balance.user_id, amount, 'credit', 'completed', 'Manual credit', null);
  return jsonb_build_object(
    'transaction_id', new_id,
    'balance', (select w.balance from public.wallet_balances w where w.user_id = increment_wallet_balance.user_id)
  );
end
$$;
comment on function public.increment_wallet_balance(uuid, numeric) is
  'SPEC §7 name, service role only: a completed credit row. Browser code claims the bonus through claim_signup_bonus instead.';
revoke execute on function public.increment_wallet_balance(uuid, numeric) from public, anon, authenticated;
grant execute on function public.increment_wallet_balance(uuid, numeric) to service_role;

create function public.claim_signup_bonus()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  w public.wallet_balances;
  paid boolean := false;
begin
  if me is null then
    raise exception 'Sign in to claim the bonus' using errcode = '42501';
  end if;
  -- The wallet row lock serialises concurrent logins; the unique reference is the second fence.
  w := public.lock_wallet(me);
  if w.balance = 0
     and exists (select 1 from public.profiles where id = me and user_type = 'advertiser')
     and not exists (select 1 from public.wallet_transactions where type = 'bonus' and reference = 'signup-bonus:' || me) then
    paid := public.post_ledger(me, 10, 'bonus', 'completed', 'Initial bonus', 'signup-bonus:' || me) is not null;
  end if;
  return jsonb_build_object('paid', paid, 'balance', (select balance from public.wallet_balances where user_id = me));
end
$$;
comment on function public.claim_signup_bonus() is
  'SPEC §4 initial bonus without the SPEC''s hole: 10 credits to the calling advertiser, once ever, only at balance 0.';
revoke execute on function public.claim_signup_bonus() from public, anon, authenticated;
grant execute on function public.claim_signup_bonus() to authenticated;

create function public.credit_deposit(p_user_id uuid, p_amount numeric, p_reference text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  t public.wallet_transactions;
begin
  if p_reference is null or trim(p_reference) = '' then
    raise exception 'A payment reference is required' using errcode = '22023';
  end if;
  if p_amount is null or p_amount < 10 or p_amount > 10000 then
    raise exception 'Deposits must be between 10 and 10,000 credits' using errcode = '22023';
  end if;
  if not exists (select 1 from public.profiles where id = p_user_id) then
    raise exception 'User not found' using errcode = 'P0002';
  end if;
  perform public.post_ledger(p_user_id, p_amount, 'deposit', 'completed', 'Deposit', p_reference);
  select * into t from public.wallet_transactions where type = 'deposit' and reference = p_reference;
  if t.user_id <> p_user_id or t.amount <> p_amount then
    raise exception 'This payment was already credited differently' using errcode = '23505';
  end if;
  return jsonb_build_object('transaction_id', t.id, 'user_id', t.user_id, 'amount', t.amount, 'reference', t.reference);
end
$$;
comment on function public.credit_deposit(uuid, numeric, text) is
  'Payments webhook, service role only: credits a deposit once per payment reference; replays return the same answer.';
revoke execute on function public.credit_deposit(uuid, numeric, text) from public, anon, authenticated;
grant execute on function public.credit_deposit(uuid, numeric, text) to service_role;
