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

-- === Triggers ============================================================================================

create trigger wallet_balances_immutable before update on public.wallet_balances for each row execute function public.forbid_column_changes('user_id');

create trigger wallet_balances_set_updated_at before update on public.wallet_balances for each row execute function public.set_updated_at();

-- === Row-level security policies =========================================================================

create policy "Admins can read every wallet" on public.wallet_balances
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Money rows are read only in a live session" on public.wallet_balances as restrictive
  for select to authenticated
  using (( select public.session_is_live() as session_is_live));
create policy "Users can read their own wallet" on public.wallet_balances
  for select to authenticated
  using ((( select auth.uid() as uid) = user_id));

-- === Scheduled jobs (pg_cron) ============================================================================

select cron.schedule('expire-reservations', '* * * * *', $job$select public.expire_reservations()$job$);
