-- Connect, round three (issue 37): money that comes back, an account re-checked when its payout is due, and the
-- admin's comparison with Stripe's own list of transfers.
--
-- * Account state: connect-webhook now retrieves the account from Stripe on every account event and applies what
--   Stripe says now, so a stale "payouts enabled" event arriving after a rejection cannot make the account ready.
--   update_payout_account is unchanged; its p_as_of is now the moment the account was read from Stripe.
-- * transfer.reversed: record_payout_reversal (connect-webhook, with the transfer as Stripe reports it now) records
--   the money coming back once per amount: a completed `payout` ledger row of the returned amount (so the
--   publisher's paid figure goes down and available goes up by it), the payout `reversed` when the whole transfer
--   was reversed (a part reversal stays `paid` with amount_reversed), the audit log and an email.
-- * claim_due_payouts re-checks that the publisher's account is still ready: a requested payout whose account is
--   not fails with why (failed_before_transfer), its amount available again, and no transfer is asked of Stripe.
-- * admin_payout_reconciliation_scope gives the reconcile-payouts function (admin at aal2) what to compare with
--   Stripe's list of transfers per connected account.

-- === payout_requests: what came back, and failures before any transfer ==================================

alter table public.payout_requests
  add column amount_reversed numeric(12, 2) not null default 0,
  add column reversed_at timestamptz,
  add column failed_before_transfer boolean not null default false,
  add constraint payout_requests_amount_reversed_check check (amount_reversed >= 0 and amount_reversed <= amount);
comment on column public.payout_requests.amount_reversed is 'How much of the payout''s Stripe transfer Stripe reversed (returned to the platform and made available to the publisher again); the whole amount when the status is reversed.';
comment on column public.payout_requests.reversed_at is 'When the last reversal of the payout''s transfer was recorded.';
comment on column public.payout_requests.failed_before_transfer is 'For a failed payout: true when it was not sent at all (its payout account was no longer ready when it was due), false when Stripe refused the transfer.';
comment on column public.payout_accounts.stripe_updated_at is 'When the state last applied was read from Stripe (connect-webhook retrieves the account on every account event): an older reading applied late changes nothing.';

-- === notification: a reversed payout =====================================================================

alter table public.notification_queue drop constraint notification_queue_template_check;
alter table public.notification_queue add constraint notification_queue_template_check check (template = any (array[
  'source_reviewed', 'campaign_reviewed', 'low_balance', 'payout_paid', 'payout_failed', 'payout_reversed',
  'dispute_decided', 'deposit_receipt', 'revision_decided']));

-- === claiming: the account must still be ready ===========================================================

create or replace function public.claim_due_payouts(p_limit integer default 10)
returns table (id uuid, publisher_id uuid, amount numeric, destination text, attempts integer, idempotency_key text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  n integer := least(greatest(coalesce(p_limit, 10), 1), 100);
  p public.payout_requests;
  problem text;
begin
  -- Checked again when the payout is due, not only when it was requested: an account Stripe has since rejected or
  -- asked more of gets no transfer. The payout fails with why and its amount is available again, as when Stripe
  -- refuses a transfer; the publisher is told and can ask again (or an admin retry it) once the account is ready.
  -- First sends only: a payout already `sending` whose lease ran out may have reached Stripe, so it is resent below
  -- with its own key (Stripe answers with the transfer it made, or refuses it).
  for p in
    select q.* from public.payout_requests q
    join public.payout_accounts a on a.publisher_id = q.publisher_id
    where q.status = 'requested' and a.state <> 'ready'
    order by q.created_at
    limit n
    for update of q skip locked
  loop
    problem := private.payout_account_problem(p.publisher_id);
    update public.payout_requests q set status = 'failed', failed_at = now(), failure_reason = left(problem, 1000),
      failed_before_transfer = true, locked_until = null
    where q.id = p.id;
    perform private.log_moderation_event('payout_request', p.id, 'requested', 'failed', left('Not sent: ' || problem, 1000));
    perform private.enqueue_notification(p.publisher_id, 'payout_failed',
      jsonb_build_object('amount', p.amount, 'reason', problem, 'before_transfer', true),
      'payout_not_sent:' || p.id || ':' || p.retries);
  end loop;
  return query
  with due as (
    select r.id, a.stripe_account_id from public.payout_requests r
    join public.payout_accounts a on a.publisher_id = r.publisher_id
    where (r.status = 'requested' and a.state = 'ready') or (r.status = 'sending' and r.locked_until < now())
    order by r.created_at
    limit n
    for update of r skip locked
  ), claimed as (
    update public.payout_requests r set
      status = 'sending',
      attempts = r.attempts + 1,
      locked_until = now() + interval '5 minutes',
      -- A resend after a lost answer must repeat the first request exactly (same key, same parameters).
      destination = case when r.status = 'sending' then coalesce(r.destination, due.stripe_account_id) else due.stripe_account_id end
    from due where r.id = due.id
    returning r.id, r.publisher_id, r.amount, r.destination, r.attempts, r.retries
  )
  -- The payout's id is the key: a resend after a lost answer is the same request, never a second transfer.
  select c.id, c.publisher_id, c.amount, c.destination, c.attempts,
    c.id::text || case when c.retries > 0 then ':retry-' || c.retries else '' end
  from claimed c;
end
$$;
comment on function public.claim_due_payouts(integer) is 'send-payouts, service role only: takes up to p_limit requested payouts of publishers whose Stripe account is ready (and ones whose sender died, after their 5-minute lease) as sending; skip locked, so two runs never take the same one. A requested payout whose account is no longer ready is not sent: it fails with the reason (failed_before_transfer), its amount available again, and the publisher is emailed. Returns the Stripe idempotency key of each claimed payout: the payout id (with the admin''s retry count after a retry).';
revoke execute on function public.claim_due_payouts(integer) from public, anon, authenticated;
grant execute on function public.claim_due_payouts(integer) to service_role;

-- A Stripe refusal says so (failed_before_transfer false), whatever an earlier attempt said.
create or replace function public.finish_payout(p_payout_id uuid, p_transfer_id text default null, p_failure text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  r public.payout_requests;
  t uuid;
begin
  if (p_transfer_id is null) = (p_failure is null) then
    raise exception 'Give either the transfer id or the failure' using errcode = '22023';
  end if;
  if p_transfer_id is not null and p_transfer_id !~ '^tr_[A-Za-z0-9]{1,196}$' then
    raise exception 'A Stripe transfer id starts with tr_' using errcode = '22023';
  end if;
  select * into r from public.payout_requests where id = p_payout_id for update;
  if not found then
    return jsonb_build_object('result', 'unknown_payout');
  end if;
  -- Replays (the function's retry, the transfer.created webhook after it) find the payout already finished.
  if r.status <> 'sending' then
    return jsonb_build_object('result', 'already_' || r.status, 'status', r.status, 'transfer_reference', r.transfer_reference);
  end if;
  if p_transfer_id is not null then
    t := private.post_ledger(r.publisher_id, -r.amount, 'payout', 'completed',
      'Payout (Stripe transfer ' || p_transfer_id || ')', 'payout:' || r.id);
    update public.payout_requests set status = 'paid', paid_at = now(), transaction_id = t,
      transfer_reference = p_transfer_id, locked_until = null, failure_reason = null, failed_at = null,
      failed_before_transfer = false
    where id = r.id returning * into r;
    perform private.log_moderation_event('payout_request', r.id, 'sending', 'paid', 'Stripe transfer ' || p_transfer_id);
    perform private.enqueue_notification(r.publisher_id, 'payout_paid',
      jsonb_build_object('amount', r.amount, 'reference', p_transfer_id, 'paid_at', r.paid_at), 'payout_paid:' || r.id);
    return jsonb_build_object('result', 'paid', 'status', r.status, 'transfer_reference', p_transfer_id);
  end if;
  update public.payout_requests set status = 'failed', failed_at = now(), failure_reason = left(p_failure, 1000),
    failed_before_transfer = false, locked_until = null
  where id = r.id returning * into r;
  perform private.log_moderation_event('payout_request', r.id, 'sending', 'failed', left(p_failure, 1000));
  perform private.enqueue_notification(r.publisher_id, 'payout_failed',
    jsonb_build_object('amount', r.amount, 'reason', r.failure_reason), 'payout_failed:' || r.id || ':' || r.attempts);
  return jsonb_build_object('result', 'failed', 'status', r.status);
end
$$;
comment on function public.finish_payout(uuid, text, text) is 'send-payouts and connect-webhook, service role only: records a sending payout paid (the tr_… reference, a completed ledger row, an email) or failed (Stripe''s reason, an email; the amount is available again). A payout no longer sending is left as it is.';
revoke execute on function public.finish_payout(uuid, text, text) from public, anon, authenticated;
grant execute on function public.finish_payout(uuid, text, text) to service_role;

-- === transfer.reversed: the money comes back =============================================================

create function public.record_payout_reversal(p_payout_id uuid, p_transfer_id text, p_amount_reversed_cents bigint)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  r public.payout_requests;
  reversed numeric(12, 2);
  back numeric(12, 2);
  was text;
begin
  if p_transfer_id is null or p_transfer_id !~ '^tr_[A-Za-z0-9]{1,196}$' then
    raise exception 'A Stripe transfer id starts with tr_' using errcode = '22023';
  end if;
  if p_amount_reversed_cents is null or p_amount_reversed_cents < 0 then
    raise exception 'Give the amount reversed in cents (0 or more)' using errcode = '22023';
  end if;
  select * into r from public.payout_requests where id = p_payout_id for update;
  if not found then
    return jsonb_build_object('result', 'unknown_payout');
  end if;
  -- Reversed before its sender recorded it (it died after Stripe made the transfer): the money left first.
  if r.status = 'sending' then
    perform public.finish_payout(r.id, p_transfer_id, null);
    select * into r from public.payout_requests where id = p_payout_id;
  end if;
  if r.status not in ('paid', 'reversed') or r.transfer_reference is distinct from p_transfer_id then
    return jsonb_build_object('result', 'not_this_payout', 'status', r.status);
  end if;
  reversed := least(p_amount_reversed_cents / 100.0, r.amount);
  back := reversed - r.amount_reversed;
  -- Stripe's total only grows: a replay, or an older reading applied after a newer one, brings nothing more back.
  if back <= 0 then
    return jsonb_build_object('result', 'already_recorded', 'status', r.status, 'amount_reversed', r.amount_reversed);
  end if;
  was := r.status;
  perform private.post_ledger(r.publisher_id, back, 'payout', 'completed',
    'Payout reversed by Stripe (transfer ' || p_transfer_id || ')',
    'payout:' || r.id || ':reversed:' || p_amount_reversed_cents);
  update public.payout_requests set amount_reversed = reversed, reversed_at = now(),
    status = case when reversed >= r.amount then 'reversed' else r.status end
  where id = r.id returning * into r;
  perform private.log_moderation_event('payout_request', r.id, was, r.status,
    to_char(back, 'FM999999990.00') || ' credits came back: Stripe reversed transfer ' || p_transfer_id);
  perform private.enqueue_notification(r.publisher_id, 'payout_reversed',
    jsonb_build_object('amount', r.amount, 'returned', back, 'amount_reversed', r.amount_reversed,
      'reference', p_transfer_id, 'whole', r.status = 'reversed'),
    'payout_reversed:' || r.id || ':' || p_amount_reversed_cents);
  return jsonb_build_object('result', case when r.status = 'reversed' then 'reversed' else 'partly_reversed' end,
    'status', r.status, 'returned', back, 'amount_reversed', r.amount_reversed);
end
$$;
comment on function public.record_payout_reversal(uuid, text, bigint) is 'connect-webhook, service role only: records that Stripe reversed (part of) a payout''s transfer, given the transfer''s total amount_reversed as Stripe reports it now. What came back since the last call is a completed payout ledger row (the publisher''s paid goes down, available up), the payout is reversed once the whole transfer is, with an audit row and an email. Idempotent: the same or a smaller total changes nothing.';
revoke execute on function public.record_payout_reversal(uuid, text, bigint) from public, anon, authenticated;
grant execute on function public.record_payout_reversal(uuid, text, bigint) to service_role;

-- === the admin's views ===================================================================================

-- The list gains what came back and why a failed payout failed (a new return type: dropped and made again).
drop function public.admin_payout_requests(text, text, date, date, integer, integer);
create function public.admin_payout_requests(p_search text default null, p_status text default null,
  p_from date default null, p_to date default null, p_limit integer default 20, p_offset integer default 0)
returns table (id uuid, created_at timestamptz, publisher_id uuid, publisher_email text, publisher_name text,
  amount numeric, status text, transfer_reference text, failure_reason text, failed_at timestamptz,
  paid_at timestamptz, attempts integer, amount_reversed numeric, reversed_at timestamptz,
  failed_before_transfer boolean, total_count bigint, in_flight_count bigint, failed_count bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  q text := nullif(trim(p_search), '');
begin
  perform private.require_admin();
  perform private.check_admin_dates(p_from, p_to);
  if p_status is not null and p_status <> all (enum_range(null::public.payout_status)::text[]) then
    raise exception 'Choose a status from the list' using errcode = '22023';
  end if;
  return query
  select r.id, r.created_at, r.publisher_id, p.email::text, p.full_name, r.amount, r.status, r.transfer_reference,
    r.failure_reason, r.failed_at, r.paid_at, r.attempts, r.amount_reversed, r.reversed_at, r.failed_before_transfer,
    count(*) over (),
    (select count(*) from public.payout_requests s where s.status = 'sending'),
    (select count(*) from public.payout_requests f where f.status = 'failed')
  from public.payout_requests r
  join public.profiles p on p.id = r.publisher_id
  where (q is null or p.email ilike '%' || q || '%' or p.full_name ilike '%' || q || '%'
         or r.transfer_reference ilike '%' || q || '%' or r.failure_reason ilike '%' || q || '%')
    and (p_status is null or r.status = p_status)
    and (p_from is null or r.created_at >= p_from::timestamp at time zone 'utc')
    and (p_to is null or r.created_at < (p_to + 1)::timestamp at time zone 'utc')
  order by r.status in ('requested', 'sending', 'failed') desc, r.created_at desc, r.id desc
  limit least(greatest(coalesce(p_limit, 20), 1), 10000) offset greatest(coalesce(p_offset, 0), 0);
end
$$;
comment on function public.admin_payout_requests(text, text, date, date, integer, integer) is 'Admins: payout requests, open ones (requested, being sent, failed) first then newest, searched by publisher email or name, transfer reference or failure reason, filtered by status and UTC date range; a page at a time, or up to 10,000 rows for a CSV export; with what Stripe reversed and whether a failed payout was sent at all; total_count is the number of matching rows, in_flight_count and failed_count the marketplace''s whatever the filters.';
revoke execute on function public.admin_payout_requests(text, text, date, date, integer, integer) from public, anon;
grant execute on function public.admin_payout_requests(text, text, date, date, integer, integer) to authenticated, service_role;

-- Paid out is what stayed paid: a reversed transfer's money came back.
create or replace function public.admin_marketplace_totals()
returns table (wallets bigint, balance numeric, on_hold numeric, reserved numeric, pending_earnings numeric,
  spend numeric, earnings numeric, platform_fees numeric, open_payouts numeric, open_payout_count bigint,
  paid_out numeric, open_disputes bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
  select
    (select count(*) from public.wallet_balances),
    (select coalesce(sum(w.balance), 0) from public.wallet_balances w)::numeric(14, 2),
    (select coalesce(-sum(t.amount), 0) from public.wallet_transactions t where t.type = 'hold' and t.status = 'pending')::numeric(14, 2),
    (select coalesce(sum(c.budget_reserved), 0) from public.campaigns c)::numeric(14, 2),
    (select coalesce(sum(t.amount), 0) from public.wallet_transactions t where t.type = 'earning' and t.status = 'pending')::numeric(14, 2),
    st.spend::numeric(14, 2), st.earnings::numeric(14, 2), (st.spend - st.earnings)::numeric(14, 2),
    (select coalesce(sum(r.amount), 0) from public.payout_requests r where r.status in ('requested', 'sending'))::numeric(14, 2),
    (select count(*) from public.payout_requests r where r.status in ('requested', 'sending')),
    (select coalesce(sum(r.amount - r.amount_reversed), 0) from public.payout_requests r where r.status in ('paid', 'reversed'))::numeric(14, 2),
    (select count(*) from public.disputes d where d.status = 'open')
  from (select coalesce(sum(s.total_spend), 0) as spend, coalesce(sum(s.total_earnings), 0) as earnings
        from public.campaign_source_stats s) st;
end
$$;
comment on function public.admin_marketplace_totals() is 'Admins: money across the marketplace (wallets, on hold, reserved, pending earnings, spend, earnings, fees, open payouts including transfers in flight, paid out net of what Stripe reversed, open disputes), exact at any number of rows.';
revoke execute on function public.admin_marketplace_totals() from public, anon;
grant execute on function public.admin_marketplace_totals() to authenticated, service_role;

-- === reconciliation with Stripe's transfers ==============================================================

create function public.admin_payout_reconciliation_scope()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_admin();
  return jsonb_build_object(
    'accounts', coalesce((
      select jsonb_agg(jsonb_build_object('account', a.stripe_account_id, 'publisher_id', a.publisher_id,
        'publisher_email', p.email::text, 'publisher_name', p.full_name) order by a.created_at, a.stripe_account_id)
      from public.payout_accounts a join public.profiles p on p.id = a.publisher_id), '[]'::jsonb),
    -- Every payout that may have a Stripe transfer: sent at least once, or paid with a transfer's id.
    'payouts', coalesce((
      select jsonb_agg(jsonb_build_object('id', r.id, 'publisher_id', r.publisher_id, 'amount', r.amount,
        'status', r.status, 'transfer_reference', r.transfer_reference, 'destination', r.destination,
        'amount_reversed', r.amount_reversed) order by r.created_at, r.id)
      from public.payout_requests r
      where r.destination is not null or r.transfer_reference like 'tr\_%'), '[]'::jsonb));
end
$$;
comment on function public.admin_payout_reconciliation_scope() is 'reconcile-payouts, called with the admin''s own token (admin at aal2, live session): the publishers'' Stripe accounts and every payout that may have a Stripe transfer (sent at least once, or paid with a tr_… reference), which the function compares with Stripe''s list of transfers per account.';
revoke execute on function public.admin_payout_reconciliation_scope() from public, anon;
grant execute on function public.admin_payout_reconciliation_scope() to authenticated, service_role;
