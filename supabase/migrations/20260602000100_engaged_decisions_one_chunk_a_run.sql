-- Engaged readers decided one chunk a scheduled run (issue 39, budget "no request of the app slowed"). A scheduled
-- run (settle_matured_holds with p_max_duration) decided chunk after chunk of readers paid per engagement until its
-- 300 ms were up, in one transaction: the advertiser's wallet, locked at the first chunk (and by the on-hold trigger
-- of every hold it moved), stayed locked to the run's commit. A request locking the same wallet (a confirmation, a
-- deposit) waited for the rest of the run: p50 7.4 ms, p99 582 ms with 10,000 readers due (bench/engaged-pay.ts).
--
-- Now a scheduled run decides at most one chunk (private.engaged_chunk_size() holds) and, when it decided any,
-- commits there: the wallet is held for one chunk's writes, and the scheduler comes back 5 seconds later for the
-- next chunk (25 readers every 5 seconds, engaged_chunk_size() below: 18,000 an hour, 10,000 in about 33 minutes,
-- within the hour; bench/engaged-pay.ts). The rows
-- the row-by-row path settles (readers paid per confirmation, and what the batch leaves to it) wait for a run whose
-- batch found nothing to decide: minutes, while a backlog of engaged readers clears. A call without a time budget
-- (tests, an operator's catch-up) decides everything due, as before.
--
-- main's latest body (20260529000100_engaged_decisions_in_batches.sql), with the batch's cap and the early return.
--
-- Grants: both functions are replaced in place, which keeps their grants; they are stated again at the end, beside
-- them: settle_matured_holds to service_role only (the scheduler), engaged_chunk_size to no API role (its callers
-- are security-definer functions).

create or replace function public.settle_matured_holds(p_now timestamp with time zone default now(), p_max_rows integer default null::integer, p_max_duration interval default null::interval)
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  t public.wallet_transactions;
  settled integer := 0;
  seen integer := 0;
  started timestamp with time zone := clock_timestamp();
  available numeric;
  problem text;
  suspended uuid[];
  verdict text;
  batched integer := 0;
begin
  if p_max_rows is not null and p_max_rows < 1 then
    raise exception 'The most rows to settle must be at least 1' using errcode = '22023';
  end if;
  -- The suspended among the accounts with money due, asked once per run (a few accounts, not every row): a
  -- subscriber with a pending hold or earning of a suspended account is neither settled nor refunded, on both sides;
  -- it waits for an admin (reinstate, or admin_refund_held_money).
  suspended := array(
    select d.user_id from (
      select distinct w.user_id from public.wallet_transactions w
      where w.status = 'pending' and w.type in ('hold', 'earning') and w.available_at <= p_now) d
    where public.account_is_suspended(d.user_id));
  -- Readers paid per engagement whose window closed are decided in sets first (private.decide_engaged_readers):
  -- within the run's rows and time, one wallet lock and one funding refresh per account. If the batch fails, all it did is undone
  -- (the block is a savepoint) and its rows are settled row by row below, where a failing row is recorded.
  -- A scheduled run (a time budget) decides at most one chunk, so the wallets it locks are held for that chunk only.
  begin
    batched := private.decide_engaged_readers(p_now, suspended,
      coalesce(p_max_rows, case when p_max_duration is not null then private.engaged_chunk_size() end),
      p_max_rows, started + p_max_duration);
  exception when others then
    get stacked diagnostics problem = message_text;
    raise warning 'Readers paid per engagement settle row by row this run: %', problem;
    batched := 0;
  end;
  settled := batched;
  if p_max_rows is not null and settled >= p_max_rows then
    return settled;
  end if;
  -- A scheduled run that decided a chunk commits now: the next run, 5 seconds later, takes the next chunk; the
  -- row-by-row path runs once no chunk is left to decide.
  if batched > 0 and p_max_duration is not null then
    return settled;
  end if;
  -- Holds first, so an earning finds its subscriber's hold already settled in the same run; among each, rows that
  -- failed before after every row that did not, oldest failure first, so failing rows never hold up the others.
  for t in
    select w.* from public.wallet_transactions w
    left join public.settlement_failures f on f.transaction_id = w.id and f.resolved_at is null
    where w.status = 'pending' and w.type in ('hold', 'earning') and w.available_at <= p_now
      and (cardinality(suspended) = 0 or w.subscription_id is null or w.subscription_id not in (
        select h.subscription_id from public.wallet_transactions h
        where h.user_id = any (suspended) and h.status = 'pending' and h.type in ('hold', 'earning')
          and h.subscription_id is not null))
    order by w.type = 'earning', f.last_failed_at nulls first, w.user_id, w.id
    -- The scheduled job (a time budget, no row cap) locks at most 1,000 candidates per run, not every due row: with
    -- 20,000 due rows, locking them all took ~225 ms of the run's 300 ms (bench/engaged-pay.ts); a run settles a few
    -- hundred at most, and the order is the same.
    limit coalesce(p_max_rows - settled, case when p_max_duration is not null then 1000 end)
    for update of w skip locked
  loop
    -- At least one row per call (counting the batch's), so a run always makes progress.
    exit when (seen > 0 or batched > 0) and p_max_duration is not null and clock_timestamp() - started >= p_max_duration;
    seen := seen + 1;
    begin
      if t.type = 'earning' then
        if t.subscription_id is not null and exists (
             select 1 from public.wallet_transactions h
             where h.subscription_id = t.subscription_id and h.type = 'hold' and h.status = 'pending') then
          -- Its hold waits for the email tool's answer (engagement-verified pay): so does the earning, quietly.
          if private.engagement_verdict(t.subscription_id, p_now) is not null then
            continue;
          end if;
          raise exception 'Waiting for the advertiser''s hold on this subscriber to settle';
        end if;
        if private.finish_ledger(t.id, 'completed') then
          settled := settled + 1;
        end if;
      else
        -- Paid per engaged reader: the window has closed; charged if the reader engaged, else released.
        verdict := private.engagement_verdict(t.subscription_id, p_now);
        if verdict = 'wait' then
          -- The tool has not answered since the window closed: look again in 5 minutes (both sides of the
          -- subscriber), until private.engagement_wait_bound() has passed.
          update public.wallet_transactions w set available_at = p_now + interval '5 minutes'
          where w.subscription_id = t.subscription_id and w.status = 'pending' and w.type in ('hold', 'earning')
            and w.available_at is not null;
          continue;
        end if;
        if verdict = 'not_engaged' then
          if private.release_not_engaged(t) then
            settled := settled + 1;
          end if;
          update public.settlement_failures set resolved_at = now() where transaction_id = t.id and resolved_at is null;
          continue;
        end if;
        perform private.lock_wallet(t.user_id);
        available := (select balance from public.wallet_balances where user_id = t.user_id);
        if available + t.amount < 0 then
          raise exception 'The advertiser''s balance (% credits) cannot pay this hold of % credits',
            to_char(available, 'FM999999990.00'), to_char(-t.amount, 'FM999999990.00');
        end if;
        -- A hold is released and the charge becomes a completed debit: what the advertiser finally paid.
        if private.finish_ledger(t.id, 'canceled', t.description || ' — released after screening') then
          perform private.post_ledger(t.user_id, t.amount, 'debit', 'completed',
            replace(t.description, ' (on hold during screening)', ''), t.reference, t.campaign_id, t.subscription_id);
          if verdict in ('engaged', 'unverified') then
            update public.newsletter_subscriptions set engagement_decided_at = now(), engagement_decision = verdict
            where id = t.subscription_id;
          end if;
          settled := settled + 1;
        end if;
      end if;
      update public.settlement_failures set resolved_at = now() where transaction_id = t.id and resolved_at is null;
      if found and t.type = 'hold' then
        perform private.log_moderation_event('subscription', t.subscription_id, 'settlement failed', 'settled', null);
      end if;
    exception when others then
      -- Everything this row did is undone (the block is a savepoint); the row stays pending for the next run.
      get stacked diagnostics problem = message_text;
      -- A hold that cannot settle goes into the admins' audit log once per failure (the table keeps the count).
      if t.type = 'hold' and t.subscription_id is not null and not exists (
           select 1 from public.settlement_failures f where f.transaction_id = t.id and f.resolved_at is null) then
        perform private.log_moderation_event('subscription', t.subscription_id, 'on hold', 'settlement failed', left(problem, 1000));
      end if;
      insert into public.settlement_failures (transaction_id, user_id, subscription_id, type, amount, reason)
      values (t.id, t.user_id, t.subscription_id, t.type::text, t.amount, left(problem, 1000))
      on conflict (transaction_id) do update set
        reason = excluded.reason, attempts = public.settlement_failures.attempts + 1,
        last_failed_at = clock_timestamp(), resolved_at = null;
    end;
  end loop;
  return settled;
end
$function$;
comment on function public.settle_matured_holds(p_now timestamp with time zone, p_max_rows integer, p_max_duration interval) is 'Scheduled, service role only: after screening each hold is released as a completed debit and each earning (once its hold settled) becomes available; a subscriber paid per engagement is charged only if it engaged, else released with the reason not_engaged (private.engagement_verdict; while the email tool''s final answer is awaited its rows are looked at again every 5 minutes). A subscriber with a pending hold or earning of a suspended account waits, on both sides, until an admin reinstates or refunds. Readers paid per engagement are decided in sets first (private.decide_engaged_readers, within the same rows and time; a call with p_max_duration decides at most one set of private.engaged_chunk_size() and, if it decided any, ends there so the wallets are locked briefly); the rest row by row: a row that cannot settle stays pending and is recorded in settlement_failures; the others settle. At most p_max_rows rows and about p_max_duration of work per call (the scheduled job settles in small batches); without them, everything due. Returns how many rows settled.';

-- 25 readers a chunk (was 50): the wallet is held for half as long per run; at one chunk every 5 seconds 18,000
-- readers an hour (10,000 in about 33 minutes).
create or replace function private.engaged_chunk_size()
 returns integer
 language sql
 immutable
 set search_path to ''
as $function$
  select 25
$function$;
comment on function private.engaged_chunk_size() is 'Internal: how many readers paid per engagement private.decide_engaged_readers decides per statement set; a scheduled run (settle_matured_holds with a time budget) decides one set and commits, so it holds the wallets it locks for one set''s writes (bench/engaged-pay.ts).';
revoke execute on function public.settle_matured_holds(p_now timestamp with time zone, p_max_rows integer, p_max_duration interval) from public, anon, authenticated;
grant execute on function public.settle_matured_holds(p_now timestamp with time zone, p_max_rows integer, p_max_duration interval) to service_role;
revoke execute on function private.engaged_chunk_size() from public, anon, authenticated, service_role;
