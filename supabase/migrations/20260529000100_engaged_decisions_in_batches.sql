-- Engaged readers decided in batches (issue 39, budget "10,000 readers decided within the hour of their window
-- closing"). settle_matured_holds decided each reader paid per engagement row by row: per reader the verdict asked
-- its deliveries, the release (or charge) locked the wallet and refreshed the advertiser's campaign funding two or
-- three times (~21 ms each), and release_not_engaged took ~51 ms: about 2 readers a second, 80 minutes for 10,000.
--
-- Now each run first decides the due readers paid per engagement in sets (private.decide_engaged_readers), chunk
-- after chunk of private.engaged_chunk_size() within the run's rows and time: one query gives a chunk's verdicts; per
-- advertiser one wallet lock, one statement per kind of ledger write (the ledger still gets its rows one per reader:
-- a canceled hold and a debit, or a canceled hold, a release row and a canceled earning), one balance update, one
-- budget update per campaign and one per-source figures update; the charged readers' earnings become available in
-- the same run; and ONE funding refresh per account (all of an advertiser's campaigns) per run. Idempotent: only
-- pending rows move, and on conflict nothing is posted twice. What the sets do not take — a hold that failed before,
-- one the balance cannot pay, a subscriber of a suspended account — goes through the row-by-row path as before,
-- which records failures; if the sets fail, all they did is undone and the rows go row by row too.
--
-- The verdict is decided once: private.engagement_verdict_given (the rule over the facts), which
-- private.engagement_verdict (one reader) and the batch (many) both ask.

create function private.engagement_verdict_given(p_confirmed_at timestamp with time zone, p_window_days integer, p_counted boolean, p_last_read timestamp with time zone, p_now timestamp with time zone)
 returns text
 language sql
 stable
 set search_path to ''
as $function$
  select case
    when coalesce(p_counted, false) then 'engaged'
    when p_now < p_confirmed_at + make_interval(days => p_window_days) then 'wait'
    when p_last_read >= p_confirmed_at + make_interval(days => p_window_days) then 'not_engaged'
    when p_now < p_confirmed_at + make_interval(days => p_window_days) + private.engagement_wait_bound() then 'wait'
    when p_last_read is not null then 'not_engaged'
    else 'unverified'
  end
$function$;
comment on function private.engagement_verdict_given(p_confirmed_at timestamp with time zone, p_window_days integer, p_counted boolean, p_last_read timestamp with time zone, p_now timestamp with time zone) is 'Internal: the engagement rule over its facts (confirmed at, window, whether a counted open or click was read back, the last read): engaged, wait (window open, or no answer since it closed and the bound not passed), not_engaged (an answer after the window closed, or past the bound at least one, without a counted open or click) or unverified (past the bound, never an answer). Asked by private.engagement_verdict and private.decide_engaged_readers.';
revoke execute on function private.engagement_verdict_given(p_confirmed_at timestamp with time zone, p_window_days integer, p_counted boolean, p_last_read timestamp with time zone, p_now timestamp with time zone) from public;

create or replace function private.engagement_verdict(p_subscription_id uuid, p_now timestamp with time zone default now())
 returns text
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  s public.newsletter_subscriptions;
  counted boolean;
  last_read timestamp with time zone;
begin
  select * into s from public.newsletter_subscriptions n where n.id = p_subscription_id;
  if not found or s.pay_rule is distinct from 'engaged' or s.engagement_decided_at is not null or s.confirmed_at is null then
    return null;
  end if;
  select bool_or(coalesce(d.counted_engagement, false)), max(d.engagement_checked_at) into counted, last_read
  from public.esp_deliveries d where d.subscription_id = p_subscription_id;
  return private.engagement_verdict_given(s.confirmed_at, s.engagement_window_days, counted, last_read, p_now);
end
$function$;

create function private.engaged_chunk_size()
 returns integer
 language sql
 immutable
 set search_path to ''
as $function$
  select 50
$function$;
comment on function private.engaged_chunk_size() is 'Internal: how many readers paid per engagement private.decide_engaged_readers decides per statement set; a scheduled run takes chunk after chunk until its time is up (bench/engaged-pay.ts).';
revoke execute on function private.engaged_chunk_size() from public;

create function private.decide_engaged_readers(p_now timestamp with time zone, p_suspended uuid[], p_max_holds integer default null::integer, p_max_rows integer default null::integer, p_deadline timestamp with time zone default null::timestamp with time zone)
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  ids uuid[];
  verdicts text[];
  advertisers uuid[];
  touched uuid[] := '{}';
  left_over uuid[] := '{}';
  adv uuid;
  pub uuid;
  balance numeric;
  charge uuid[];
  unpaid uuid[];
  charged uuid[];
  released uuid[];
  charged_subs uuid[] := '{}';
  publishers uuid[];
  all_publishers uuid[] := '{}';
  debited numeric;
  holds integer := 0;
  settled integer := 0;
  n integer;
begin
  loop
    exit when p_max_holds is not null and holds >= p_max_holds;
    exit when holds > 0 and p_deadline is not null and clock_timestamp() >= p_deadline;
    -- The next chunk of due holds of undecided readers paid per engagement, with their verdict, locked (skipping
    -- rows another run holds). Not taken, for the row-by-row path: a hold that failed before (it records why), one
    -- the balance could not pay in an earlier chunk, and a subscriber with a pending row of a suspended account (it
    -- waits for an admin).
    with c as (
      select w.id, w.user_id, w.subscription_id from public.wallet_transactions w
      join public.newsletter_subscriptions s on s.id = w.subscription_id
      where w.status = 'pending' and w.type = 'hold' and w.available_at <= p_now and w.id <> all (left_over)
        and s.pay_rule = 'engaged' and s.engagement_decided_at is null and s.confirmed_at is not null
        and not exists (select 1 from public.settlement_failures f where f.transaction_id = w.id and f.resolved_at is null)
        and (cardinality(p_suspended) = 0 or not exists (
          select 1 from public.wallet_transactions x
          where x.subscription_id = w.subscription_id and x.status = 'pending' and x.type in ('hold', 'earning')
            and x.user_id = any (p_suspended)))
      -- Earliest due first, along the pending rows' index, so a chunk stops reading at its limit (ordering 10,000
      -- due rows by advertiser for every chunk cost more than deciding them).
      order by w.available_at
      limit least(private.engaged_chunk_size(), p_max_holds - holds)
      for update of w skip locked
    )
    select array_agg(c.id order by c.user_id, c.id),
      array_agg(private.engagement_verdict_given(s.confirmed_at, s.engagement_window_days, r.counted, r.last_read, p_now) order by c.user_id, c.id),
      array_agg(c.user_id order by c.user_id, c.id)
    into ids, verdicts, advertisers
    from c
    join public.newsletter_subscriptions s on s.id = c.subscription_id
    left join lateral (
      select bool_or(coalesce(d.counted_engagement, false)) as counted, max(d.engagement_checked_at) as last_read
      from public.esp_deliveries d where d.subscription_id = c.subscription_id) r on true;
    exit when ids is null;
    holds := holds + cardinality(ids);

    -- Waiting for the tool's final answer: both sides of the reader look again in 5 minutes.
    update public.wallet_transactions w set available_at = p_now + interval '5 minutes'
    where w.subscription_id in (
        select h.subscription_id from public.wallet_transactions h
        join unnest(ids, verdicts) as v(id, verdict) on v.id = h.id
        where v.verdict = 'wait')
      and w.status = 'pending' and w.type in ('hold', 'earning') and w.available_at is not null;

    for adv in select distinct a from unnest(advertisers) as a order by a loop
      -- Lock order as every money function: the wallet, then the campaigns, then the subscriptions.
      perform private.lock_wallet(adv);
      touched := touched || adv;
      select b.balance into balance from public.wallet_balances b where b.user_id = adv;

      -- Charged (engaged; unverified as a confirmed reader), oldest first, while the balance pays them; a hold it
      -- cannot pay is left to the row-by-row path, which says so in settlement_failures.
      select array_agg(x.id) filter (where balance - x.running >= 0), coalesce(array_agg(x.id) filter (where balance - x.running < 0), '{}')
      into charge, unpaid
      from (
        select h.id, sum(-h.amount) over (order by h.id) as running
        from public.wallet_transactions h
        join unnest(ids, verdicts) as v(id, verdict) on v.id = h.id
        where h.user_id = adv and h.status = 'pending' and v.verdict in ('engaged', 'unverified')) x;
      left_over := left_over || unpaid;
      if charge is not null then
        with h as (
          update public.wallet_transactions w set status = 'canceled', description = o.description || ' — released after screening'
          from public.wallet_transactions o
          where w.id = any (charge) and w.status = 'pending' and o.id = w.id
          returning w.user_id, w.amount, o.description, w.reference, w.campaign_id, w.subscription_id
        ), d as (
          insert into public.wallet_transactions (user_id, amount, type, status, description, reference, campaign_id, subscription_id)
          select h.user_id, h.amount, 'debit', 'completed', replace(h.description, ' (on hold during screening)', ''),
            h.reference, h.campaign_id, h.subscription_id
          from h
          on conflict (type, reference) do nothing
          returning amount, subscription_id
        )
        select coalesce(sum(d.amount), 0), coalesce(array_agg(d.subscription_id), '{}') into debited, charged from d;
        update public.wallet_balances b set balance = b.balance + debited where b.user_id = adv and debited <> 0;
        update public.newsletter_subscriptions s set engagement_decided_at = now(), engagement_decision = v.verdict
        from public.wallet_transactions h join unnest(ids, verdicts) as v(id, verdict) on v.id = h.id
        where h.subscription_id = s.id and s.id = any (charged);
        settled := settled + cardinality(charged);
        charged_subs := charged_subs || charged;
      end if;

      -- Released (not_engaged): nothing charged, the earning cancelled, the spend and per-source figures taken back.
      with h as (
        update public.wallet_transactions w set status = 'canceled',
          description = o.description || ' — released: no open or click within ' || s.engagement_window_days || ' days'
        from public.wallet_transactions o, public.newsletter_subscriptions s, unnest(ids, verdicts) as v(id, verdict)
        where v.verdict = 'not_engaged' and w.id = v.id and w.user_id = adv and w.status = 'pending'
          and o.id = w.id and s.id = w.subscription_id
        returning w.user_id, w.amount, w.subscription_id, s.campaign_id, s.audience_source_id, s.engagement_window_days
      ), r as (
        insert into public.wallet_transactions (user_id, amount, type, status, description, reference, campaign_id, subscription_id)
        select h.user_id, 0, 'release', 'completed',
          'Hold released: the reader did not open or click within ' || h.engagement_window_days || ' days',
          'subscription:' || h.subscription_id, h.campaign_id, h.subscription_id
        from h
        on conflict (type, reference) do nothing
      ), c as (
        update public.campaigns c set budget_spent = greatest(c.budget_spent - x.released, 0)
        from (select h.campaign_id, sum(-h.amount) as released from h group by h.campaign_id) x
        where c.id = x.campaign_id
      ), st as (
        update public.campaign_source_stats st set
          total_conversions = greatest(st.total_conversions - x.readers, 0),
          total_spend = st.total_spend - x.released,
          total_earnings = st.total_earnings - x.earned
        from (select h.campaign_id, h.audience_source_id, count(*)::integer as readers, sum(-h.amount) as released,
                sum(private.publisher_earning(-h.amount)) as earned
              from h group by h.campaign_id, h.audience_source_id) x
        where st.campaign_id = x.campaign_id and st.audience_source_id = x.audience_source_id
      )
      select array_agg(h.subscription_id) into released from h;
      if released is not null then
        update public.newsletter_subscriptions s set counted = false, not_counted_reason = 'not_engaged',
          engagement_decided_at = now(), engagement_decision = 'not_engaged'
        where s.id = any (released);
        select array_agg(distinct e.user_id order by e.user_id) into publishers from public.wallet_transactions e
        where e.subscription_id = any (released) and e.type = 'earning' and e.status = 'pending';
        foreach pub in array coalesce(publishers, '{}') loop
          perform private.lock_wallet(pub);
        end loop;
        all_publishers := all_publishers || coalesce(publishers, '{}');
        update public.wallet_transactions e set status = 'canceled',
          description = o.description || ' — not paid: the reader did not open or click within ' || s.engagement_window_days || ' days'
        from public.wallet_transactions o, public.newsletter_subscriptions s
        where e.subscription_id = any (released) and e.type = 'earning' and e.status = 'pending'
          and o.id = e.id and s.id = e.subscription_id;
        settled := settled + cardinality(released);
      end if;
    end loop;
  end loop;

  -- The charged readers' earnings become available (their holds settled above), within the run's row limit.
  if cardinality(charged_subs) > 0 and (p_max_rows is null or p_max_rows > settled) then
    select array_agg(distinct e.user_id order by e.user_id) into publishers from public.wallet_transactions e
    where e.subscription_id = any (charged_subs) and e.type = 'earning' and e.status = 'pending' and e.available_at <= p_now;
    foreach pub in array coalesce(publishers, '{}') loop
      perform private.lock_wallet(pub);
    end loop;
    all_publishers := all_publishers || coalesce(publishers, '{}');
    with e as (
      update public.wallet_transactions w set status = 'completed'
      where w.id in (
        select x.id from public.wallet_transactions x
        where x.subscription_id = any (charged_subs) and x.type = 'earning' and x.status = 'pending' and x.available_at <= p_now
        order by x.id
        limit p_max_rows - settled)
      and w.status = 'pending'
      returning w.user_id, w.amount
    ), b as (
      select e.user_id, sum(e.amount) as amount, count(*)::integer as rows from e group by e.user_id
    ), u as (
      update public.wallet_balances wb set balance = wb.balance + b.amount from b where wb.user_id = b.user_id
    )
    select coalesce(sum(b.rows), 0)::integer into n from b;
    settled := settled + n;
  end if;

  -- One funding refresh per account whatever this run moved (all of an advertiser's campaigns at once).
  foreach adv in array array(select distinct a from unnest(touched || all_publishers) as a order by a) loop
    perform private.refresh_campaign_funding(adv);
  end loop;
  return settled;
end
$function$;
comment on function private.decide_engaged_readers(p_now timestamp with time zone, p_suspended uuid[], p_max_holds integer, p_max_rows integer, p_deadline timestamp with time zone) is 'Internal (settle_matured_holds): decides due readers paid per engagement as sets of private.engaged_chunk_size(), as the row-by-row path would one by one: charged (engaged, or unverified as a confirmed reader; while the balance pays) with their earnings made available, released not_engaged (hold and earning cancelled, spend and per-source figures taken back), or looked at again in 5 minutes (wait). Chunk after chunk until p_max_holds holds or p_deadline (at least one chunk); one funding refresh per account at the end. Leaves to the row-by-row path holds that failed before, holds the balance cannot pay and subscribers of suspended accounts (p_suspended). Returns the rows settled (holds decided and earnings made available, at most p_max_rows).';
revoke execute on function private.decide_engaged_readers(p_now timestamp with time zone, p_suspended uuid[], p_max_holds integer, p_max_rows integer, p_deadline timestamp with time zone) from public;
-- Grants: none of the three new private functions is granted to an API role, on purpose; their one caller is
-- settle_matured_holds (security definer, owned by postgres), whose execute grant (service_role only, the scheduler)
-- create or replace keeps. Revoked from the API roles too, so no default privilege can reach them.
revoke execute on function private.engagement_verdict_given(p_confirmed_at timestamp with time zone, p_window_days integer, p_counted boolean, p_last_read timestamp with time zone, p_now timestamp with time zone) from anon, authenticated, service_role;
revoke execute on function private.engaged_chunk_size() from anon, authenticated, service_role;
revoke execute on function private.decide_engaged_readers(p_now timestamp with time zone, p_suspended uuid[], p_max_holds integer, p_max_rows integer, p_deadline timestamp with time zone) from anon, authenticated, service_role;

-- main's latest body (20260521000100_engagement_verified_pay.sql), with the batch first.
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
  begin
    batched := private.decide_engaged_readers(p_now, suspended, p_max_rows, p_max_rows, started + p_max_duration);
  exception when others then
    get stacked diagnostics problem = message_text;
    raise warning 'Readers paid per engagement settle row by row this run: %', problem;
    batched := 0;
  end;
  settled := batched;
  if p_max_rows is not null and settled >= p_max_rows then
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
comment on function public.settle_matured_holds(p_now timestamp with time zone, p_max_rows integer, p_max_duration interval) is 'Scheduled, service role only: after screening each hold is released as a completed debit and each earning (once its hold settled) becomes available; a subscriber paid per engagement is charged only if it engaged, else released with the reason not_engaged (private.engagement_verdict; while the email tool''s final answer is awaited its rows are looked at again every 5 minutes). A subscriber with a pending hold or earning of a suspended account waits, on both sides, until an admin reinstates or refunds. Readers paid per engagement are decided in sets first (private.decide_engaged_readers, within the same rows and time); the rest row by row: a row that cannot settle stays pending and is recorded in settlement_failures; the others settle. At most p_max_rows rows and about p_max_duration of work per call (the scheduled job settles in small batches); without them, everything due. Returns how many rows settled.';
