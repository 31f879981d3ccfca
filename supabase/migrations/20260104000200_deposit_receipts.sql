-- Deposit receipts through the notification queue: complete_deposit queues the `deposit_receipt` email in the
-- transaction that credits the wallet (once per checkout session, however often the webhook replays), so the
-- receipt takes the same mail path as every other notification. Credits made outside the checkout (seed data,
-- support) pass p_notify => false.

drop function public.complete_deposit(text, uuid, numeric, text);

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

-- Same body as before, but a credit made outside the checkout sends no receipt (the seed would otherwise
-- fill the dev mailbox with demo receipts).
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
