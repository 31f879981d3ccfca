-- Settlement that one row cannot stop (issue 21). settle_matured_holds() ran the whole market in one
-- transaction: when one advertiser's hold could not be paid (their balance would go below zero) it raised
-- wallet_balances_balance_check and rolled back every user's holds and earnings, every minute, so no
-- publisher could be paid. Now:
-- * each row settles in its own subtransaction (a nested begin … exception block is a savepoint); a row
--   that fails stays pending, is recorded in public.settlement_failures with its reason (admins read it;
--   a failing hold also enters the admin audit log once, and again when it finally settles), and is tried
--   again on the next run — the other rows settle regardless;
-- * a publisher's earning settles only after the advertiser's hold for the same subscriber did, so the
--   platform never pays out what it could not collect;
-- * a hold the wallet cannot cover cannot be placed: confirm_subscription confirms such a subscriber unpaid
--   ('budget_exhausted'), and post_ledger refuses any hold beyond the balance as the last fence.

create table public.settlement_failures (
  transaction_id uuid primary key references public.wallet_transactions (id),
  user_id uuid not null references public.profiles (id) on delete cascade,
  subscription_id uuid references public.newsletter_subscriptions (id),
  type text not null,
  amount numeric(12, 2) not null,
  reason text not null check (char_length(reason) <= 1000),
  attempts integer not null default 1 check (attempts > 0),
  first_failed_at timestamptz not null default now(),
  last_failed_at timestamptz not null default now(),
  resolved_at timestamptz
);
comment on table public.settlement_failures is
  'Holds and earnings the scheduled settlement could not settle, with the last reason and how often it was tried; resolved_at is set when a later run settles the row. Admins read it; only settle_matured_holds writes it.';
create index settlement_failures_user_idx on public.settlement_failures (user_id);
create index settlement_failures_subscription_idx on public.settlement_failures (subscription_id);
create index settlement_failures_open_idx on public.settlement_failures (last_failed_at desc) where resolved_at is null;

alter table public.settlement_failures enable row level security;
revoke all on public.settlement_failures from anon, authenticated;
revoke truncate, references, trigger on public.settlement_failures from service_role;
grant select on public.settlement_failures to authenticated;
create policy "Admins can read settlement failures"
  on public.settlement_failures for select to authenticated
  using ((select public.is_admin()));

-- What the wallet can still pay: its balance less the holds already placed (reservations are promises
-- the next hold turns into a charge, so they do not count against it).
create function private.wallet_covers_hold(p_user_id uuid, p_amount numeric)
returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select coalesce((select balance from public.wallet_balances where user_id = p_user_id), 0)
       + coalesce((select sum(amount) from public.wallet_transactions
                   where user_id = p_user_id and type = 'hold' and status = 'pending'), 0)
       - abs(coalesce(p_amount, 0)) >= 0
$$;
comment on function private.wallet_covers_hold(uuid, numeric) is
  'Whether the wallet''s balance pays every pending hold plus one more of p_amount (call it with the wallet locked).';
revoke execute on function private.wallet_covers_hold(uuid, numeric) from public, anon, authenticated, service_role;

create or replace function public.post_ledger(
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
    perform public.refresh_campaign_funding(p_user_id);
  end if;
  return new_id;
end
$$;

create or replace function public.confirm_subscription(p_token_hash text, p_email text, p_ip text default null, p_user_agent text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  s public.newsletter_subscriptions;
  c public.campaigns;
  src public.audience_sources;
  reason text;
  fee_rate constant numeric := 0.20;
  screening constant interval := interval '7 days';
  earning numeric(12, 2);
  reserved numeric(12, 2);
begin
  select * into s from public.newsletter_subscriptions
    where token_hash = p_token_hash or used_token_hash = p_token_hash
    limit 1;
  if not found or p_token_hash is null or s.email is distinct from lower(trim(coalesce(p_email, '')))::extensions.citext then
    return jsonb_build_object('result', 'invalid', 'newsletter_name', null, 'campaign_id', null, 'counted', false, 'not_counted_reason', null);
  end if;
  -- Lock order wallet, then campaign, then subscription (as every money function) so they never deadlock.
  perform public.lock_wallet((select advertiser_id from public.campaigns where id = s.campaign_id));
  select * into c from public.campaigns where id = s.campaign_id for update;
  select * into s from public.newsletter_subscriptions where id = s.id for update;
  if s.used_token_hash = p_token_hash and s.status = 'confirmed' then
    return jsonb_build_object('result', 'already_confirmed', 'newsletter_name', c.name, 'campaign_id', c.id,
      'counted', s.counted, 'not_counted_reason', s.not_counted_reason);
  end if;
  if s.token_hash is distinct from p_token_hash then
    return jsonb_build_object('result', 'invalid', 'newsletter_name', null, 'campaign_id', null, 'counted', false, 'not_counted_reason', null);
  end if;
  if s.status = 'expired' or (s.status = 'pending' and s.token_expires_at <= now()) then
    perform private.release_reservation(s.id);
    update public.newsletter_subscriptions set status = 'expired' where id = s.id;
    return jsonb_build_object('result', 'expired', 'newsletter_name', c.name, 'campaign_id', c.id, 'counted', false, 'not_counted_reason', null);
  end if;
  if s.status <> 'pending' then
    return jsonb_build_object('result', 'invalid', 'newsletter_name', null, 'campaign_id', null, 'counted', false, 'not_counted_reason', null);
  end if;

  if s.audience_source_id is not null then
    reason := private.paid_subscriber_refusal(s, true);
    -- Only what was reserved can be charged: pausing, a lower budget or price never charge an unpromised subscriber.
    if reason is null and s.reserved_amount = 0 then
      reason := 'budget_exhausted';
    end if;
    -- A hold the wallet cannot pay would stop settlement later: confirm the subscriber unpaid instead.
    if reason is null and not private.wallet_covers_hold(c.advertiser_id, s.price) then
      reason := 'budget_exhausted';
    end if;
  end if;
  reserved := private.release_reservation(s.id);

  update public.newsletter_subscriptions set
    status = 'confirmed', confirmed_at = now(), token_hash = null, used_token_hash = p_token_hash,
    confirm_ip = left(p_ip, 100), confirm_user_agent = left(p_user_agent, 1000),
    counted = s.audience_source_id is not null and reason is null,
    not_counted_reason = reason,
    price = case when s.audience_source_id is not null and reason is null then s.price end,
    first_paid_at = coalesce(s.first_paid_at, case when s.audience_source_id is not null and reason is null then now() end)
  where id = s.id
  returning * into s;

  if s.counted then
    select * into src from public.audience_sources where id = s.audience_source_id;
    earning := round(s.price * (1 - fee_rate), 2);
    perform public.post_ledger(c.advertiser_id, -s.price, 'hold', 'pending',
      'Subscriber to ' || c.name || ' (on hold during screening)', 'subscription:' || s.id, c.id, s.id, now() + screening);
    perform public.post_ledger(src.publisher_id, earning, 'earning', 'pending',
      'Subscriber to ' || c.name || ' via ' || src.name, 'subscription:' || s.id, c.id, s.id, now() + screening);
    update public.campaigns set budget_spent = budget_spent + s.price where id = c.id;
    perform public.bump_campaign_source_stats(c.id, src.id, 0, 0, 1, s.price, earning);
  end if;

  return jsonb_build_object('result', 'confirmed', 'newsletter_name', c.name, 'campaign_id', c.id,
    'counted', s.counted, 'not_counted_reason', s.not_counted_reason);
end
$$;

create or replace function public.settle_matured_holds(p_now timestamptz default now())
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  t public.wallet_transactions;
  settled integer := 0;
  available numeric;
  problem text;
begin
  -- Holds first, so an earning finds its subscriber's hold already settled in the same run.
  for t in
    select * from public.wallet_transactions
    where status = 'pending' and type in ('hold', 'earning') and available_at <= p_now
    order by type = 'earning', user_id, id
    for update skip locked
  loop
    begin
      if t.type = 'earning' then
        if t.subscription_id is not null and exists (
             select 1 from public.wallet_transactions h
             where h.subscription_id = t.subscription_id and h.type = 'hold' and h.status = 'pending') then
          raise exception 'Waiting for the advertiser''s hold on this subscriber to settle';
        end if;
        if public.finish_ledger(t.id, 'completed') then
          settled := settled + 1;
        end if;
      else
        perform public.lock_wallet(t.user_id);
        available := (select balance from public.wallet_balances where user_id = t.user_id);
        if available + t.amount < 0 then
          raise exception 'The advertiser''s balance (% credits) cannot pay this hold of % credits',
            to_char(available, 'FM999999990.00'), to_char(-t.amount, 'FM999999990.00');
        end if;
        -- A hold is released and the charge becomes a completed debit: what the advertiser finally paid.
        if public.finish_ledger(t.id, 'canceled', t.description || ' — released after screening') then
          perform public.post_ledger(t.user_id, t.amount, 'debit', 'completed',
            replace(t.description, ' (on hold during screening)', ''), t.reference, t.campaign_id, t.subscription_id);
          settled := settled + 1;
        end if;
      end if;
      update public.settlement_failures set resolved_at = now() where transaction_id = t.id and resolved_at is null;
      if found and t.type = 'hold' then
        perform public.log_moderation_event('subscription', t.subscription_id, 'settlement failed', 'settled', null);
      end if;
    exception when others then
      -- Everything this row did is undone (the block is a savepoint); the row stays pending for the next run.
      get stacked diagnostics problem = message_text;
      -- A hold that cannot settle goes into the admins' audit log once per failure (the table keeps the count).
      if t.type = 'hold' and t.subscription_id is not null and not exists (
           select 1 from public.settlement_failures f where f.transaction_id = t.id and f.resolved_at is null) then
        perform public.log_moderation_event('subscription', t.subscription_id, 'on hold', 'settlement failed', left(problem, 1000));
      end if;
      insert into public.settlement_failures (transaction_id, user_id, subscription_id, type, amount, reason)
      values (t.id, t.user_id, t.subscription_id, t.type::text, t.amount, left(problem, 1000))
      on conflict (transaction_id) do update set
        reason = excluded.reason, attempts = public.settlement_failures.attempts + 1,
        last_failed_at = now(), resolved_at = null;
    end;
  end loop;
  return settled;
end
$$;
comment on function public.settle_matured_holds(timestamptz) is
  'Scheduled, service role only: after screening each hold is released as a completed debit and each earning (once its hold settled) becomes available. Row by row: a row that cannot settle stays pending and is recorded in settlement_failures; the others settle. Returns how many rows settled.';
