-- Baseline, wallet and ledger: wallets, the ledger every money move goes through, deposits by Stripe Checkout, low-balance alerts.
--
-- One of the 13 files that replaced the 38 migrations of January 2026 (none had been applied to a hosted
-- database; docs/decisions.md), rendered from the schema they built with the changes listed in
-- supabase/tests/helpers/squash-changes.ts; supabase/tests/schema.test.ts proves everything else equal. The
-- history goes on in new migrations after these; the current state is read in supabase/schemas/.

-- === Tables ==============================================================================================

create table private.low_balance_alerts (
  user_id uuid not null,
  alerted_at timestamp with time zone default now() not null,
  constraint low_balance_alerts_pkey primary key (user_id),
  constraint low_balance_alerts_user_id_fkey foreign key (user_id) references public.profiles(id) on delete cascade
);
comment on table private.low_balance_alerts is 'Advertisers already told their balance is low; the row goes when the balance recovers, re-arming the alert.';

create table public.wallet_balances (
  id uuid default gen_random_uuid() not null,
  user_id uuid not null,
  balance numeric(12,2) default 0 not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint wallet_balances_pkey primary key (id),
  constraint wallet_balances_user_id_key unique (user_id),
  constraint wallet_balances_balance_check check ((balance >= (0)::numeric)),
  constraint wallet_balances_user_id_fkey foreign key (user_id) references public.profiles(id) on delete cascade
);
alter table public.wallet_balances enable row level security;
comment on table public.wallet_balances is 'One wallet per user; balance is the sum of the user''s completed ledger rows and changes only through money functions.';
revoke insert, update, delete, truncate, references, trigger on table public.wallet_balances from anon, authenticated;
revoke truncate, references, trigger on table public.wallet_balances from service_role;

create table public.wallet_transactions (
  id uuid default gen_random_uuid() not null,
  user_id uuid not null,
  amount numeric(12,2) not null,
  type text not null,
  status text default 'completed'::text not null,
  description text,
  reference text,
  campaign_id uuid,
  subscription_id uuid,
  available_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint wallet_transactions_pkey primary key (id),
  constraint wallet_transactions_type_reference_key unique (type, reference),
  constraint wallet_transactions_status_check check ((status = any ((enum_range(null::public.transaction_status))::text[]))),
  constraint wallet_transactions_type_check check ((type = any ((enum_range(null::public.transaction_type))::text[]))),
  constraint wallet_transactions_user_id_fkey foreign key (user_id) references public.profiles(id) on delete cascade
);
alter table public.wallet_transactions enable row level security;
create index wallet_transactions_campaign_idx on public.wallet_transactions using btree (campaign_id) where (campaign_id is not null);
create index wallet_transactions_pending_idx on public.wallet_transactions using btree (available_at) where (status = 'pending'::text);
create index wallet_transactions_subscription_idx on public.wallet_transactions using btree (subscription_id) where (subscription_id is not null);
create index wallet_transactions_user_created_idx on public.wallet_transactions using btree (user_id, created_at desc);
comment on table public.wallet_transactions is 'The ledger. Every money event is one row; reference is unique per type so each event happens once. Holds are negative and pending until screening ends; earnings are positive and pending until then.';
revoke insert, update, delete, truncate, references, trigger on table public.wallet_transactions from anon, authenticated;
revoke truncate, references, trigger on table public.wallet_transactions from service_role;

create table public.deposits (
  id uuid default gen_random_uuid() not null,
  user_id uuid not null,
  amount numeric(12,2) not null,
  currency text default 'usd'::text not null,
  status public.deposit_status default 'pending'::public.deposit_status not null,
  stripe_session_id text not null,
  stripe_payment_intent text,
  transaction_id uuid,
  failure_reason text,
  expires_at timestamp with time zone,
  completed_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint deposits_pkey primary key (id),
  constraint deposits_stripe_session_id_key unique (stripe_session_id),
  constraint deposits_amount_check check (((amount >= (10)::numeric) and (amount <= (10000)::numeric))),
  constraint deposits_completed_has_transaction check (((status = 'completed'::public.deposit_status) = (transaction_id is not null))),
  constraint deposits_currency_check check ((currency = 'usd'::text)),
  constraint deposits_stripe_session_id_check check ((btrim(stripe_session_id) <> ''::text)),
  constraint deposits_transaction_id_fkey foreign key (transaction_id) references public.wallet_transactions(id),
  constraint deposits_user_id_fkey foreign key (user_id) references public.profiles(id) on delete cascade
);
alter table public.deposits enable row level security;
create index deposits_created_idx on public.deposits using btree (created_at desc);
create index deposits_transaction_idx on public.deposits using btree (transaction_id) where (transaction_id is not null);
create index deposits_user_created_idx on public.deposits using btree (user_id, created_at desc);
comment on table public.deposits is 'One row per checkout session (Stripe reference in stripe_session_id). Completed rows point at their ledger row; the balance still comes from the ledger alone.';
revoke insert, update, delete, truncate, references, trigger on table public.deposits from anon, authenticated;
revoke truncate, references, trigger on table public.deposits from service_role;

-- === Functions ===========================================================================================

create function public.advertiser_balance()
 returns table(available numeric, reserved numeric, on_hold numeric, balance numeric)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_live_session();
  return query select * from private.advertiser_balance_of((select auth.uid()));
end
$function$;
comment on function public.advertiser_balance() is 'The signed-in advertiser''s available, reserved, on-hold and settled balance (what subscribe and confirm check).';
revoke execute on function public.advertiser_balance() from anon, public;

create function public.check_checkout_allowance(p_user_id uuid)
 returns void
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  if (select count(*) from public.deposits d
      where d.user_id = p_user_id and d.status = 'pending' and coalesce(d.expires_at, d.created_at + interval '1 hour') > now()) >= 5 then
    raise exception 'You already have 5 payment pages open. Finish or cancel one, or wait an hour, before opening another.'
      using errcode = '22023';
  end if;
end
$function$;
comment on function public.check_checkout_allowance(p_user_id uuid) is 'create-checkout-session, service role only: refuses a sixth open checkout session for one advertiser with a message they can act on.';
revoke execute on function public.check_checkout_allowance(p_user_id uuid) from anon, authenticated, public;

create function public.claim_signup_bonus()
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  me uuid := (select auth.uid());
  w public.wallet_balances;
  paid boolean := false;
begin
  if me is null then
    raise exception 'Sign in to claim the bonus' using errcode = '42501';
  end if;
  -- The wallet row lock serialises concurrent logins; the unique reference is the second fence.
  w := private.lock_wallet(me);
  if w.balance = 0
     and exists (select 1 from public.profiles where id = me and user_type = 'advertiser')
     and not exists (select 1 from public.wallet_transactions where type = 'bonus' and reference = 'signup-bonus:' || me) then
    paid := private.post_ledger(me, 10, 'bonus', 'completed', 'Initial bonus', 'signup-bonus:' || me) is not null;
  end if;
  return jsonb_build_object('paid', paid, 'balance', (select balance from public.wallet_balances where user_id = me));
end
$function$;
comment on function public.claim_signup_bonus() is 'SPEC §4 initial bonus without the SPEC''s hole: 10 credits to the calling advertiser, once ever, only at balance 0.';
revoke execute on function public.claim_signup_bonus() from anon, public;

create function public.close_deposit(p_session_id text, p_status public.deposit_status, p_reason text default null::text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
comment on function public.close_deposit(p_session_id text, p_status public.deposit_status, p_reason text) is 'payments-webhook, service role only: marks a pending deposit failed or expired; completed ones never change.';
revoke execute on function public.close_deposit(p_session_id text, p_status public.deposit_status, p_reason text) from anon, authenticated, public;

create function public.complete_deposit(p_session_id text, p_user_id uuid, p_amount numeric, p_payment_intent text default null::text, p_notify boolean default true)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
  tx := private.post_ledger(d.user_id, d.amount, 'deposit', 'completed', 'Deposit', d.stripe_session_id);
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
$function$;
comment on function public.complete_deposit(p_session_id text, p_user_id uuid, p_amount numeric, p_payment_intent text, p_notify boolean) is 'payments-webhook, service role only: credits a paid checkout session once (result credited) and queues its receipt, whatever the replays (already_credited); unknown_session, user_mismatch and amount_mismatch credit nothing.';
revoke execute on function public.complete_deposit(p_session_id text, p_user_id uuid, p_amount numeric, p_payment_intent text, p_notify boolean) from anon, authenticated, public;

create function public.credit_deposit(p_user_id uuid, p_amount numeric, p_reference text)
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
$function$;
comment on function public.credit_deposit(p_user_id uuid, p_amount numeric, p_reference text) is 'Service role only: credits a payment made outside the checkout once per reference (seed, support); replays return the same answer.';
revoke execute on function public.credit_deposit(p_user_id uuid, p_amount numeric, p_reference text) from anon, authenticated, public;

create function public.ensure_wallet_exists(p_user_id uuid)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
comment on function public.ensure_wallet_exists(p_user_id uuid) is 'SPEC §7: creates the caller''s wallet on first login (balance 0, no money moves) and returns it.';
revoke execute on function public.ensure_wallet_exists(p_user_id uuid) from anon, public;

create function public.expire_reservations(p_now timestamp with time zone default now())
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  s record;
  expired integer := 0;
begin
  for s in
    select n.id, c.advertiser_id from public.newsletter_subscriptions n join public.campaigns c on c.id = n.campaign_id
    where n.status = 'pending' and n.token_expires_at <= p_now
    order by c.advertiser_id, n.id
    for update of n skip locked
  loop
    perform private.lock_wallet(s.advertiser_id);
    perform private.release_reservation(s.id);
    update public.newsletter_subscriptions set status = 'expired' where id = s.id and status = 'pending';
    expired := expired + 1;
  end loop;
  return expired;
end
$function$;
comment on function public.expire_reservations(p_now timestamp with time zone) is 'Scheduled, service role only: pending subscriptions past their 48 hours expire and give their reservation back. Idempotent; concurrent runs skip each other''s rows.';
revoke execute on function public.expire_reservations(p_now timestamp with time zone) from anon, authenticated, public;

create function private.finish_ledger(p_transaction_id uuid, p_status text, p_description text default null::text)
 returns boolean
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  t public.wallet_transactions;
begin
  select * into t from public.wallet_transactions where id = p_transaction_id;
  if not found then
    return false;
  end if;
  perform private.lock_wallet(t.user_id);
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
  perform private.refresh_campaign_funding(t.user_id);
  return true;
end
$function$;
comment on function private.finish_ledger(p_transaction_id uuid, p_status text, p_description text) is 'Internal: completes or cancels one pending ledger row exactly once, keeping balance = sum of completed rows.';
revoke execute on function private.finish_ledger(p_transaction_id uuid, p_status text, p_description text) from public;

create function public.increment_wallet_balance(user_id uuid, amount numeric)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  new_id uuid;
begin
  if amount is null or amount <= 0 then
    raise exception 'Amount must be positive' using errcode = '22023';
  end if;
  new_id := private.post_ledger(increment_wallet_balance.user_id, amount, 'credit', 'completed', 'Manual credit', null);
  return jsonb_build_object(
    'transaction_id', new_id,
    'balance', (select w.balance from public.wallet_balances w where w.user_id = increment_wallet_balance.user_id)
  );
end
$function$;
comment on function public.increment_wallet_balance(user_id uuid, amount numeric) is 'SPEC §7 name, service role only: a completed credit row. Browser code claims the bonus through claim_signup_bonus instead.';
revoke execute on function public.increment_wallet_balance(user_id uuid, amount numeric) from anon, authenticated, public;

create function private.lock_wallet(p_user_id uuid)
 returns public.wallet_balances
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  w public.wallet_balances;
begin
  insert into public.wallet_balances (user_id) values (p_user_id) on conflict (user_id) do nothing;
  select * into w from public.wallet_balances where user_id = p_user_id for update;
  return w;
end
$function$;
comment on function private.lock_wallet(p_user_id uuid) is 'Internal: creates the wallet if missing and row-locks it for the rest of the transaction.';
revoke execute on function private.lock_wallet(p_user_id uuid) from public;

create function public.open_deposit(p_user_id uuid, p_amount numeric, p_session_id text, p_expires_at timestamp with time zone default null::timestamp with time zone)
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
$function$;
comment on function public.open_deposit(p_user_id uuid, p_amount numeric, p_session_id text, p_expires_at timestamp with time zone) is 'create-checkout-session, service role only: a pending deposit for a checkout session an advertiser is about to pay. Moves no money.';
revoke execute on function public.open_deposit(p_user_id uuid, p_amount numeric, p_session_id text, p_expires_at timestamp with time zone) from anon, authenticated, public;

create function private.post_ledger(p_user_id uuid, p_amount numeric, p_type text, p_status text, p_description text, p_reference text, p_campaign_id uuid default null::uuid, p_subscription_id uuid default null::uuid, p_available_at timestamp with time zone default null::timestamp with time zone)
 returns uuid
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  new_id uuid;
begin
  perform private.lock_wallet(p_user_id);
  -- The last fence: a hold is a charge settlement will make, so the balance must already pay it.
  if p_type = 'hold' and p_status = 'pending' and not private.wallet_covers_hold(p_user_id, p_amount) then
    raise exception 'The wallet cannot cover this hold' using errcode = '23514';
  end if;
  insert into public.wallet_transactions
    (user_id, amount, type, status, description, reference, campaign_id, subscription_id, available_at)
  values (p_user_id, p_amount, p_type, p_status, p_description, p_reference, p_campaign_id, p_subscription_id, p_available_at)
  on conflict (type, reference) do nothing
  returning id into new_id;
  if new_id is not null and p_status = 'completed' then
    update public.wallet_balances set balance = balance + p_amount where user_id = p_user_id;
  end if;
  if new_id is not null then
    perform private.refresh_campaign_funding(p_user_id);
  end if;
  return new_id;
end
$function$;
comment on function private.post_ledger(p_user_id uuid, p_amount numeric, p_type text, p_status text, p_description text, p_reference text, p_campaign_id uuid, p_subscription_id uuid, p_available_at timestamp with time zone) is 'Internal: appends one ledger row and, when completed, applies it to the balance. Idempotent per (type, reference).';
revoke execute on function private.post_ledger(p_user_id uuid, p_amount numeric, p_type text, p_status text, p_description text, p_reference text, p_campaign_id uuid, p_subscription_id uuid, p_available_at timestamp with time zone) from public;

create function public.publisher_balance()
 returns table(pending numeric, available numeric, requested numeric, paid numeric)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_live_session();
  return query select * from private.publisher_balance_of((select auth.uid()));
end
$function$;
comment on function public.publisher_balance() is 'The signed-in publisher''s pending, available, requested and paid earnings (what request_payout checks).';
revoke execute on function public.publisher_balance() from anon, public;

create function private.release_reservation(p_subscription_id uuid)
 returns numeric
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  amount numeric(12, 2);
  cid uuid;
begin
  select reserved_amount, campaign_id into amount, cid from public.newsletter_subscriptions
    where id = p_subscription_id for update;
  if not found or amount = 0 then
    return 0;
  end if;
  update public.newsletter_subscriptions set reserved_amount = 0 where id = p_subscription_id;
  update public.campaigns set budget_reserved = budget_reserved - amount, reservations_open = reservations_open - 1
    where id = cid;
  perform private.refresh_campaign_funding((select advertiser_id from public.campaigns where id = cid));
  return amount;
end
$function$;
comment on function private.release_reservation(p_subscription_id uuid) is 'Internal: gives a subscription''s reserved price back to the campaign budget and the advertiser''s available balance.';
revoke execute on function private.release_reservation(p_subscription_id uuid) from public;

create function private.wallet_covers_hold(p_user_id uuid, p_amount numeric)
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce((select balance from public.wallet_balances where user_id = p_user_id), 0)
       + coalesce((select sum(amount) from public.wallet_transactions
                   where user_id = p_user_id and type = 'hold' and status = 'pending'), 0)
       - abs(coalesce(p_amount, 0)) >= 0
$function$;
comment on function private.wallet_covers_hold(p_user_id uuid, p_amount numeric) is 'Whether the wallet''s balance pays every pending hold plus one more of p_amount (call it with the wallet locked).';
revoke execute on function private.wallet_covers_hold(p_user_id uuid, p_amount numeric) from public;

-- === Triggers ============================================================================================

create trigger deposits_immutable before update on public.deposits for each row execute function public.forbid_column_changes('user_id', 'amount', 'currency', 'stripe_session_id');

create trigger deposits_set_updated_at before update on public.deposits for each row execute function public.set_updated_at();

create trigger wallet_balances_immutable before update on public.wallet_balances for each row execute function public.forbid_column_changes('user_id');

create trigger wallet_balances_set_updated_at before update on public.wallet_balances for each row execute function public.set_updated_at();

create trigger wallet_transactions_immutable before update on public.wallet_transactions for each row execute function public.forbid_column_changes('user_id', 'amount', 'type', 'reference');

create trigger wallet_transactions_set_updated_at before update on public.wallet_transactions for each row execute function public.set_updated_at();

-- === Row-level security policies =========================================================================

create policy "Admins can read every deposit" on public.deposits
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Deposits are read only in a live session" on public.deposits as restrictive
  for select to authenticated
  using (( select public.session_is_live() as session_is_live));
create policy "Users can read their own deposits" on public.deposits
  for select to authenticated
  using ((( select auth.uid() as uid) = user_id));

create policy "Admins can read every wallet" on public.wallet_balances
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Money rows are read only in a live session" on public.wallet_balances as restrictive
  for select to authenticated
  using (( select public.session_is_live() as session_is_live));
create policy "Users can read their own wallet" on public.wallet_balances
  for select to authenticated
  using ((( select auth.uid() as uid) = user_id));

create policy "Admins can read every transaction" on public.wallet_transactions
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Ledger rows are read only in a live session" on public.wallet_transactions as restrictive
  for select to authenticated
  using (( select public.session_is_live() as session_is_live));
create policy "Users can read their own transactions" on public.wallet_transactions
  for select to authenticated
  using ((( select auth.uid() as uid) = user_id));

-- === Scheduled jobs (pg_cron) ============================================================================

select cron.schedule('expire-reservations', '* * * * *', $job$select public.expire_reservations()$job$);
