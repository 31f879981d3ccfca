-- Payouts through Stripe Connect Express (issue 24): where a publisher is paid, and payouts sent as Stripe transfers.
--
-- - payout_accounts: one Express account per publisher, written only by the service role (create-connect-onboarding
--   links it, connect-webhook keeps it current from `account.updated`), read by its owner and admins.
-- - request_payout needs a ready account and then asks send-payouts (pg_net) to send the payout at once; the
--   `send-payouts` job kicks it every minute while payouts are due, and makes automatic payouts for publishers who
--   asked for them.
-- - send-payouts claims due payouts (claim_due_payouts: skip locked, a 5-minute lease, so concurrent runs never take
--   the same one), makes a transfer with the payout's id as Stripe's idempotency key, and records the result
--   (finish_payout): paid with the `tr_…` reference and a completed ledger row, or failed with Stripe's reason and
--   the amount available again. Either way the publisher gets an email.
-- - Admins keep "mark paid by hand" (publishers paid outside Stripe), now for failed payouts too, and can retry a
--   failed one.

-- === Tables ==============================================================================================

create table public.payout_accounts (
  publisher_id uuid not null,
  stripe_account_id text not null,
  state text default 'not_set_up'::text not null,
  details_submitted boolean default false not null,
  payouts_enabled boolean default false not null,
  requirements_due text[] default '{}'::text[] not null,
  disabled_reason text,
  auto_payout boolean default false not null,
  stripe_updated_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint payout_accounts_pkey primary key (publisher_id),
  constraint payout_accounts_stripe_account_id_key unique (stripe_account_id),
  constraint payout_accounts_stripe_account_id_check check ((stripe_account_id ~ '^acct_[A-Za-z0-9]{1,250}$'::text)),
  constraint payout_accounts_state_check check ((state = any ((enum_range(null::public.payout_account_state))::text[]))),
  constraint payout_accounts_disabled_reason_check check ((char_length(disabled_reason) <= 200)),
  constraint payout_accounts_publisher_id_fkey foreign key (publisher_id) references public.profiles(id) on delete cascade
);
alter table public.payout_accounts enable row level security;
comment on table public.payout_accounts is 'A publisher''s Stripe Connect Express account and what Stripe last said about it (account.updated): state is derived from it by private.payout_account_state. Only the service role writes it, through link_payout_account and update_payout_account; auto_payout changes through set_auto_payout.';
comment on column public.payout_accounts.stripe_updated_at is 'When Stripe made the event last applied: an older event arriving late changes nothing.';
revoke all on table public.payout_accounts from anon, authenticated;
revoke truncate, references, trigger on table public.payout_accounts from service_role;
grant select on table public.payout_accounts to authenticated;

alter table public.payout_requests
  add column attempts integer default 0 not null,
  add column retries integer default 0 not null,
  add column locked_until timestamp with time zone,
  add column destination text,
  add column failure_reason text,
  add column failed_at timestamp with time zone,
  add constraint payout_requests_attempts_check check ((attempts >= 0)),
  add constraint payout_requests_retries_check check ((retries >= 0)),
  add constraint payout_requests_failure_reason_check check ((char_length(failure_reason) <= 1000));
comment on column public.payout_requests.destination is 'The Stripe account (acct_…) the transfer was sent to; kept so a resent transfer has the same parameters as the first.';
comment on column public.payout_requests.retries is 'How often an admin sent a failed payout again: part of the Stripe idempotency key, since Stripe may keep the answer of a refused request under its key.';
comment on column public.payout_requests.failure_reason is 'Why the last transfer failed, in Stripe''s words.';
comment on column public.payout_requests.locked_until is 'While sending: the lease of the run that claimed it; a run that died leaves it to expire and the next run resends with the same idempotency key.';
comment on table public.payout_requests is 'A publisher''s request to be paid available earnings (minimum 50 credits): sent as a Stripe transfer by send-payouts, or marked paid by hand by an admin.';

alter table public.notification_queue drop constraint notification_queue_template_check;
alter table public.notification_queue add constraint notification_queue_template_check check ((template = any (array['source_reviewed'::text, 'campaign_reviewed'::text, 'low_balance'::text, 'payout_paid'::text, 'payout_failed'::text, 'dispute_decided'::text, 'deposit_receipt'::text])));

-- === Functions ===========================================================================================

create function private.payout_account_state(p_details_submitted boolean, p_payouts_enabled boolean, p_requirements_due text[], p_disabled_reason text)
 returns text
 language sql
 immutable
 set search_path to ''
as $function$
  select case
    when p_payouts_enabled then 'ready'
    when coalesce(p_disabled_reason, '') like 'rejected.%' then 'action_needed'
    when not p_details_submitted then 'not_set_up'
    when cardinality(coalesce(p_requirements_due, '{}')) > 0 then 'action_needed'
    else 'pending_verification'
  end
$function$;
comment on function private.payout_account_state(p_details_submitted boolean, p_payouts_enabled boolean, p_requirements_due text[], p_disabled_reason text) is 'Internal: the state the publisher sees, from what Stripe says of the account: ready when payouts are enabled; action needed when rejected or something is due after the details were sent; not set up before they were; else pending verification.';
revoke execute on function private.payout_account_state(p_details_submitted boolean, p_payouts_enabled boolean, p_requirements_due text[], p_disabled_reason text) from public;

create function private.payout_account_problem(p_publisher_id uuid)
 returns text
 language sql
 stable security definer
 set search_path to ''
as $function$
  select case coalesce((select a.state from public.payout_accounts a where a.publisher_id = p_publisher_id), 'not_set_up')
    when 'ready' then null
    when 'pending_verification' then 'Stripe is still verifying your payout account. You can request a payout once it is ready.'
    when 'action_needed' then 'Stripe needs more information before you can be paid. Open "Set up payouts" and finish what it asks.'
    else 'Set up payouts first: Stripe needs to know where to send your money.'
  end
$function$;
comment on function private.payout_account_problem(p_publisher_id uuid) is 'Internal: why a publisher cannot be paid through Stripe yet (the words request_payout and set_auto_payout raise), or null when the account is ready.';
revoke execute on function private.payout_account_problem(p_publisher_id uuid) from public;

create function public.link_payout_account(p_publisher_id uuid, p_account_id text)
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if not exists (select 1 from public.profiles where id = p_publisher_id and user_type = 'publisher') then
    raise exception 'Only publishers can set up payouts' using errcode = '42501';
  end if;
  insert into public.payout_accounts (publisher_id, stripe_account_id) values (p_publisher_id, p_account_id)
  on conflict (publisher_id) do nothing;
  -- One account per publisher: a second onboarding started at the same moment gets the first one's account.
  return (select stripe_account_id from public.payout_accounts where publisher_id = p_publisher_id);
end
$function$;
comment on function public.link_payout_account(p_publisher_id uuid, p_account_id text) is 'create-connect-onboarding, service role only: records the Express account made for a publisher, once; returns the account the publisher has.';
revoke execute on function public.link_payout_account(p_publisher_id uuid, p_account_id text) from anon, authenticated, public;

create function public.update_payout_account(p_account_id text, p_details_submitted boolean, p_payouts_enabled boolean, p_requirements_due text[], p_disabled_reason text, p_as_of timestamp with time zone)
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  a public.payout_accounts;
begin
  update public.payout_accounts set
    details_submitted = coalesce(p_details_submitted, false),
    payouts_enabled = coalesce(p_payouts_enabled, false),
    requirements_due = coalesce(p_requirements_due, '{}'),
    disabled_reason = left(p_disabled_reason, 200),
    state = private.payout_account_state(coalesce(p_details_submitted, false), coalesce(p_payouts_enabled, false),
      coalesce(p_requirements_due, '{}'), p_disabled_reason),
    stripe_updated_at = p_as_of
  where stripe_account_id = p_account_id and (stripe_updated_at is null or stripe_updated_at <= p_as_of)
  returning * into a;
  if found then
    return a.state;
  end if;
  return case when exists (select 1 from public.payout_accounts where stripe_account_id = p_account_id)
    then 'stale' else 'unknown_account' end;
end
$function$;
comment on function public.update_payout_account(p_account_id text, p_details_submitted boolean, p_payouts_enabled boolean, p_requirements_due text[], p_disabled_reason text, p_as_of timestamp with time zone) is 'connect-webhook, service role only: applies an account.updated event to the account it names; returns the new state, ''stale'' for an event older than the last applied, or ''unknown_account''.';
revoke execute on function public.update_payout_account(p_account_id text, p_details_submitted boolean, p_payouts_enabled boolean, p_requirements_due text[], p_disabled_reason text, p_as_of timestamp with time zone) from anon, authenticated, public;

create function public.set_auto_payout(p_enabled boolean)
 returns boolean
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  me uuid := (select auth.uid());
  problem text;
begin
  perform private.require_aal2();
  if not exists (select 1 from public.profiles where id = me and user_type = 'publisher') then
    raise exception 'Only publishers can request payouts' using errcode = '42501';
  end if;
  if coalesce(p_enabled, false) then
    problem := private.payout_account_problem(me);
    if problem is not null then
      raise exception '%', problem using errcode = '22023';
    end if;
  end if;
  update public.payout_accounts set auto_payout = coalesce(p_enabled, false) where publisher_id = me;
  return coalesce(p_enabled, false);
end
$function$;
comment on function public.set_auto_payout(p_enabled boolean) is 'Publishers turn automatic payouts on (needs a ready account) or off: the send-payouts job then requests everything available once it reaches the minimum.';
revoke execute on function public.set_auto_payout(p_enabled boolean) from anon, public;

create or replace function private.publisher_balance_of(p_user_id uuid)
 returns table(pending numeric, available numeric, requested numeric, paid numeric)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select e.pending::numeric(12, 2), (b.balance - q.requested)::numeric(12, 2), q.requested::numeric(12, 2), p.paid::numeric(12, 2)
  from (select coalesce((select w.balance from public.wallet_balances w where w.user_id = p_user_id), 0) as balance) b,
       (select coalesce(sum(t.amount), 0) as pending from public.wallet_transactions t
        where t.user_id = p_user_id and t.type = 'earning' and t.status = 'pending') e,
       (select coalesce(sum(r.amount), 0) as requested from public.payout_requests r
        where r.publisher_id = p_user_id and r.status in ('requested', 'sending')) q,
       (select coalesce(-sum(t.amount), 0) as paid from public.wallet_transactions t
        where t.user_id = p_user_id and t.type = 'payout' and t.status = 'completed') p
$function$;
comment on function private.publisher_balance_of(p_user_id uuid) is 'A publisher''s money: pending (in screening), available (settled earnings − paid − requested or being sent), requested (including transfers in flight), paid. A failed payout is available again.';

create or replace function public.request_payout(p_amount numeric)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  me uuid := (select auth.uid());
  r public.payout_requests;
  problem text;
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
  -- The wallet lock serialises two requests sent at once; the second sees the first as requested.
  perform private.lock_wallet(me);
  if (select available from private.publisher_balance_of(me)) < p_amount then
    raise exception 'You can only withdraw available earnings (% credits available)',
      to_char((select available from private.publisher_balance_of(me)), 'FM999999990.00') using errcode = '22023';
  end if;
  problem := private.payout_account_problem(me);
  if problem is not null then
    raise exception '%', problem using errcode = '22023';
  end if;
  insert into public.payout_requests (publisher_id, amount) values (me, p_amount) returning * into r;
  -- Sent at once (after commit, through pg_net); the send-payouts job catches anything this call misses.
  perform private.kick_edge_function('send-payouts', 120000);
  return jsonb_build_object('id', r.id, 'amount', r.amount, 'status', r.status);
end
$function$;
comment on function public.request_payout(p_amount numeric) is 'Publishers ask to be paid: at least 50 credits, no more than available earnings minus open requests, and a ready Stripe account. Moves no money: send-payouts transfers it.';

create function public.claim_due_payouts(p_limit integer default 10)
 returns table(id uuid, publisher_id uuid, amount numeric, destination text, attempts integer, idempotency_key text)
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  return query
  with due as (
    select r.id, a.stripe_account_id from public.payout_requests r
    join public.payout_accounts a on a.publisher_id = r.publisher_id
    where r.status = 'requested' or (r.status = 'sending' and r.locked_until < now())
    order by r.created_at
    limit least(greatest(coalesce(p_limit, 10), 1), 100)
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
$function$;
comment on function public.claim_due_payouts(p_limit integer) is 'send-payouts, service role only: takes up to p_limit requested payouts of publishers with a Stripe account (and ones whose sender died, after their 5-minute lease) as sending; skip locked, so two runs never take the same one. Returns the Stripe idempotency key of each: the payout id (with the admin''s retry count after a retry).';
revoke execute on function public.claim_due_payouts(p_limit integer) from anon, authenticated, public;

create function public.finish_payout(p_payout_id uuid, p_transfer_id text default null::text, p_failure text default null::text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
      transfer_reference = p_transfer_id, locked_until = null, failure_reason = null, failed_at = null
    where id = r.id returning * into r;
    perform private.log_moderation_event('payout_request', r.id, 'sending', 'paid', 'Stripe transfer ' || p_transfer_id);
    perform private.enqueue_notification(r.publisher_id, 'payout_paid',
      jsonb_build_object('amount', r.amount, 'reference', p_transfer_id, 'paid_at', r.paid_at), 'payout_paid:' || r.id);
    return jsonb_build_object('result', 'paid', 'status', r.status, 'transfer_reference', p_transfer_id);
  end if;
  update public.payout_requests set status = 'failed', failed_at = now(), failure_reason = left(p_failure, 1000),
    locked_until = null
  where id = r.id returning * into r;
  perform private.log_moderation_event('payout_request', r.id, 'sending', 'failed', left(p_failure, 1000));
  perform private.enqueue_notification(r.publisher_id, 'payout_failed',
    jsonb_build_object('amount', r.amount, 'reason', r.failure_reason), 'payout_failed:' || r.id || ':' || r.attempts);
  return jsonb_build_object('result', 'failed', 'status', r.status);
end
$function$;
comment on function public.finish_payout(p_payout_id uuid, p_transfer_id text, p_failure text) is 'send-payouts and connect-webhook, service role only: records a sending payout paid (the tr_… reference, a completed ledger row, an email) or failed (Stripe''s reason, an email; the amount is available again). A payout no longer sending is left as it is.';
revoke execute on function public.finish_payout(p_payout_id uuid, p_transfer_id text, p_failure text) from anon, authenticated, public;

create function public.admin_retry_payout(p_payout_id uuid)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  r public.payout_requests;
  problem text;
begin
  perform private.require_admin();
  select * into r from public.payout_requests where id = p_payout_id for update;
  if not found then
    raise exception 'Payout request not found' using errcode = 'P0002';
  end if;
  if r.status <> 'failed' then
    raise exception 'Only a failed payout can be retried' using errcode = '22023';
  end if;
  perform private.lock_wallet(r.publisher_id);
  if (select available from private.publisher_balance_of(r.publisher_id)) < r.amount then
    raise exception 'The publisher''s available balance no longer covers this payout' using errcode = '22023';
  end if;
  problem := private.payout_account_problem(r.publisher_id);
  if problem is not null then
    raise exception '%', 'The publisher''s payout account is not ready: ' || problem using errcode = '22023';
  end if;
  update public.payout_requests set status = 'requested', locked_until = null, retries = r.retries + 1
  where id = r.id returning * into r;
  perform private.log_moderation_event('payout_request', r.id, 'failed', 'requested', 'Retried by an admin');
  perform private.kick_edge_function('send-payouts', 120000);
  return jsonb_build_object('id', r.id, 'status', r.status, 'amount', r.amount);
end
$function$;
comment on function public.admin_retry_payout(p_payout_id uuid) is 'Admins (at aal2) send a failed payout again: re-checks the publisher''s available balance and account, then queues it for send-payouts.';
revoke execute on function public.admin_retry_payout(p_payout_id uuid) from anon, public;

create or replace function public.admin_mark_payout_paid(p_payout_id uuid, p_reference text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  r public.payout_requests;
  ref text := nullif(trim(p_reference), '');
  t uuid;
  old_status text;
  covered numeric;
begin
  perform private.require_admin();
  if ref is null or char_length(ref) < 3 then
    raise exception 'Enter the transfer reference of the payment (at least 3 characters)' using errcode = '22023';
  end if;
  if char_length(ref) > 200 then
    raise exception 'The transfer reference can be at most 200 characters' using errcode = '22023';
  end if;
  select * into r from public.payout_requests where id = p_payout_id for update;
  if not found then
    raise exception 'Payout request not found' using errcode = 'P0002';
  end if;
  if r.status = 'sending' then
    raise exception 'This payout is being sent through Stripe; wait for its result' using errcode = '22023';
  end if;
  if r.status not in ('requested', 'failed') then
    raise exception 'This payout was already handled' using errcode = '22023';
  end if;
  old_status := r.status;
  perform private.lock_wallet(r.publisher_id);
  -- A requested payout is already set aside; a failed one must still be covered by what is available.
  covered := (select available from private.publisher_balance_of(r.publisher_id));
  if r.status = 'requested' then
    covered := covered + r.amount;
  end if;
  if covered < r.amount then
    raise exception 'The publisher''s available balance no longer covers this payout' using errcode = '22023';
  end if;
  t := private.post_ledger(r.publisher_id, -r.amount, 'payout', 'completed', 'Payout (transfer ' || ref || ')', 'payout:' || r.id);
  update public.payout_requests
    set status = 'paid', paid_at = now(), transaction_id = t, transfer_reference = ref, paid_by = (select auth.uid())
    where id = r.id returning * into r;
  perform private.log_moderation_event('payout_request', r.id, old_status, 'paid', 'Transfer reference ' || ref);
  perform private.enqueue_notification(r.publisher_id, 'payout_paid',
    jsonb_build_object('amount', r.amount, 'reference', ref, 'paid_at', r.paid_at), 'payout_paid:' || r.id);
  return jsonb_build_object('id', r.id, 'status', r.status, 'amount', r.amount, 'transfer_reference', ref, 'transaction_id', t);
end
$function$;
comment on function public.admin_mark_payout_paid(p_payout_id uuid, p_reference text) is 'Admins (at aal2) mark a requested or failed payout paid by hand (publishers paid outside Stripe) with its transfer reference: re-checks the balance under the wallet lock, writes the completed payout row, logs it and emails the publisher. A payout being sent through Stripe is refused.';

create function private.dispatch_payouts()
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  a record;
  amount numeric;
  due integer;
begin
  -- Automatic payouts: everything available, once it reaches the minimum, with nothing already on its way.
  for a in
    select p.publisher_id from public.payout_accounts p
    where p.auto_payout and p.state = 'ready'
      and not exists (select 1 from public.payout_requests r
                      where r.publisher_id = p.publisher_id and r.status in ('requested', 'sending'))
  loop
    perform private.lock_wallet(a.publisher_id);
    amount := (select available from private.publisher_balance_of(a.publisher_id));
    if amount >= 50 then
      insert into public.payout_requests (publisher_id, amount) values (a.publisher_id, amount);
    end if;
  end loop;
  select count(*) into due from public.payout_requests r
  where (r.status = 'requested' or (r.status = 'sending' and r.locked_until < now()))
    and exists (select 1 from public.payout_accounts p where p.publisher_id = r.publisher_id);
  if due > 0 and not private.kick_edge_function('send-payouts', 120000) then
    raise exception 'Store project_url and service_role_key in Vault (vault.create_secret) so scheduled jobs can call edge functions';
  end if;
  return due;
end
$function$;
comment on function private.dispatch_payouts() is 'Scheduled every minute (send-payouts): requests automatic payouts, then calls send-payouts when payouts are due; returns how many.';
revoke execute on function private.dispatch_payouts() from public;

-- === Triggers ============================================================================================

create trigger payout_accounts_immutable before update on public.payout_accounts for each row execute function public.forbid_column_changes('publisher_id', 'stripe_account_id');

create trigger payout_accounts_set_updated_at before update on public.payout_accounts for each row execute function public.set_updated_at();

-- === Row-level security policies =========================================================================

create policy "Admins can read every payout account" on public.payout_accounts
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Payout accounts are read only in a live session" on public.payout_accounts as restrictive
  for select to authenticated
  using (( select public.session_is_live() as session_is_live));
create policy "Publishers can read their own payout account" on public.payout_accounts
  for select to authenticated
  using ((( select auth.uid() as uid) = publisher_id));

-- === Scheduled jobs (pg_cron) ============================================================================

select cron.schedule('send-payouts', '* * * * *', $job$select private.dispatch_payouts()$job$);
