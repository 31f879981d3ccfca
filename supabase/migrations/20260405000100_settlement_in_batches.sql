-- Issue 28: settlement in small committed batches, and the advertiser's figures it needs kept incrementally.
--
-- 1. What an advertiser has on hold is kept on the wallet row (wallet_balances.on_hold), maintained by a trigger on
--    the ledger, so wallet_available and wallet_covers_hold cost the same for an advertiser with 10 or 100,000 ledger
--    rows. They summed the advertiser's pending holds by scanning the ledger, once per settled row, per confirmation
--    and per campaign whose funding was re-derived: 8,000 matured rows of one advertiser took 46–64 s.
-- 2. settle_matured_holds takes a row and a time limit; the scheduled job settles at most 300 ms of rows every
--    5 seconds, each run its own transaction, so no request waits long behind it on either engine (PGlite runs one
--    transaction at a time) and the time to settle grows linearly with the rows. Rows that failed before go last,
--    so a run of failing rows never starves the others. Called without limits it settles everything, as before.

alter table public.wallet_balances add column on_hold numeric(12,2) default 0 not null;
alter table public.wallet_balances add constraint wallet_balances_on_hold_check check ((on_hold >= (0)::numeric));
comment on column public.wallet_balances.on_hold is 'What the advertiser has on hold: minus the sum of their pending hold rows, kept by the ledger''s trigger (wallet_transactions_keep_on_hold).';

update public.wallet_balances w
   set on_hold = coalesce((select -sum(t.amount) from public.wallet_transactions t
                           where t.user_id = w.user_id and t.type = 'hold' and t.status = 'pending'), 0);

create function private.keep_on_hold()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  was numeric := 0;
  now_held numeric := 0;
begin
  if tg_op in ('UPDATE', 'DELETE') and old.type = 'hold' and old.status = 'pending' then
    was := -old.amount;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.type = 'hold' and new.status = 'pending' then
    now_held := -new.amount;
  end if;
  if tg_op = 'UPDATE' and old.user_id is distinct from new.user_id then
    update public.wallet_balances set on_hold = on_hold - was where user_id = old.user_id;
    was := 0;
  end if;
  if now_held > was then
    insert into public.wallet_balances as w (user_id, on_hold) values (new.user_id, now_held - was)
    on conflict (user_id) do update set on_hold = w.on_hold + excluded.on_hold;
  elsif now_held < was then
    -- A wallet deleted with its user (cascade) has nothing left to keep.
    update public.wallet_balances set on_hold = on_hold - (was - now_held)
    where user_id = case when tg_op = 'DELETE' then old.user_id else new.user_id end;
  end if;
  return null;
end
$function$;
comment on function private.keep_on_hold() is 'Internal trigger: keeps wallet_balances.on_hold equal to minus the sum of the user''s pending hold rows, whichever function writes the ledger.';
revoke execute on function private.keep_on_hold() from public;

create trigger wallet_transactions_keep_on_hold after insert or update of type, status, amount, user_id or delete
  on public.wallet_transactions for each row execute function private.keep_on_hold();

create or replace function private.wallet_available(p_user_id uuid)
 returns numeric
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce((select balance - on_hold from public.wallet_balances where user_id = p_user_id), 0)
       - coalesce((select sum(budget_reserved) from public.campaigns where advertiser_id = p_user_id), 0)
$function$;

create or replace function private.wallet_covers_hold(p_user_id uuid, p_amount numeric)
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce((select balance - on_hold from public.wallet_balances where user_id = p_user_id), 0)
       - abs(coalesce(p_amount, 0)) >= 0
$function$;

-- Campaigns are looked up by advertiser on every funding refresh.
create index if not exists campaigns_advertiser_idx on public.campaigns using btree (advertiser_id);

drop function public.settle_matured_holds(p_now timestamp with time zone);

create function public.settle_matured_holds(
  p_now timestamp with time zone default now(),
  p_max_rows integer default null,
  p_max_duration interval default null)
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
begin
  if p_max_rows is not null and p_max_rows < 1 then
    raise exception 'The most rows to settle must be at least 1' using errcode = '22023';
  end if;
  -- Holds first, so an earning finds its subscriber's hold already settled in the same run; among each, rows that
  -- failed before after every row that did not, oldest failure first, so failing rows never hold up the others.
  for t in
    select w.* from public.wallet_transactions w
    left join public.settlement_failures f on f.transaction_id = w.id and f.resolved_at is null
    where w.status = 'pending' and w.type in ('hold', 'earning') and w.available_at <= p_now
    order by w.type = 'earning', f.last_failed_at nulls first, w.user_id, w.id
    limit p_max_rows
    for update of w skip locked
  loop
    -- At least one row per call, so a run always makes progress.
    exit when seen > 0 and p_max_duration is not null and clock_timestamp() - started >= p_max_duration;
    seen := seen + 1;
    begin
      if t.type = 'earning' then
        if t.subscription_id is not null and exists (
             select 1 from public.wallet_transactions h
             where h.subscription_id = t.subscription_id and h.type = 'hold' and h.status = 'pending') then
          raise exception 'Waiting for the advertiser''s hold on this subscriber to settle';
        end if;
        if private.finish_ledger(t.id, 'completed') then
          settled := settled + 1;
        end if;
      else
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
comment on function public.settle_matured_holds(p_now timestamp with time zone, p_max_rows integer, p_max_duration interval) is 'Scheduled, service role only: after screening each hold is released as a completed debit and each earning (once its hold settled) becomes available. Row by row: a row that cannot settle stays pending and is recorded in settlement_failures; the others settle. At most p_max_rows rows and about p_max_duration of work per call (the scheduled job settles in small batches); without them, everything due. Returns how many rows settled.';
revoke execute on function public.settle_matured_holds(p_now timestamp with time zone, p_max_rows integer, p_max_duration interval) from anon, authenticated, public;

-- Every 5 seconds, at most 300 ms of rows: about 100–1,000 rows a run, each run its own transaction.
select cron.unschedule('settle-matured-holds');
select cron.schedule('settle-matured-holds', '5 seconds',
  $job$select public.settle_matured_holds(p_max_duration => interval '300 milliseconds')$job$);

-- A funding refresh reads the advertiser's available credit once, not once per campaign: settling one hold refreshed
-- twice and asked wallet_available 12 times for an advertiser with 6 campaigns. The rule itself stays in one place,
-- private.funding_status_given, which campaign_funding_status (the campaigns trigger's) calls too.
create function private.funding_status_given(p_available numeric, p_price numeric, p_budget_total numeric, p_budget_spent numeric, p_budget_reserved numeric)
 returns text
 language sql
 immutable
 set search_path to ''
as $function$
  select case
    when p_budget_total - p_budget_spent - p_budget_reserved < p_price then 'budget_exhausted'
    when p_available < p_price then 'balance_exhausted'
    else 'funded'
  end
$function$;
comment on function private.funding_status_given(p_available numeric, p_price numeric, p_budget_total numeric, p_budget_spent numeric, p_budget_reserved numeric) is 'Internal: whether a campaign can promise one more subscriber, given its advertiser''s available credit and its own budget, spend and reservations.';
revoke execute on function private.funding_status_given(p_available numeric, p_price numeric, p_budget_total numeric, p_budget_spent numeric, p_budget_reserved numeric) from public;

create or replace function private.campaign_funding_status(p_advertiser_id uuid, p_price numeric, p_budget_total numeric, p_budget_spent numeric, p_budget_reserved numeric)
 returns text
 language sql
 stable security definer
 set search_path to ''
as $function$
  select private.funding_status_given(private.wallet_available(p_advertiser_id), p_price, p_budget_total, p_budget_spent, p_budget_reserved)
$function$;

create or replace function private.refresh_campaign_funding(p_advertiser_id uuid)
 returns void
 language sql
 security definer
 set search_path to ''
as $function$
  -- Materialized: an inlined CTE would call wallet_available again for every campaign.
  with advertiser as materialized (select private.wallet_available(p_advertiser_id) as available)
  update public.campaigns c set funding_status = c.funding_status
  from advertiser a
  where c.advertiser_id = p_advertiser_id
    and c.funding_status is distinct from private.funding_status_given(
      a.available, c.price_per_subscriber, c.budget_total, c.budget_spent, c.budget_reserved)
$function$;

-- Locking a wallet that exists (every call but a user's first) no longer tries an insert first.
create or replace function private.lock_wallet(p_user_id uuid)
 returns public.wallet_balances
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  w public.wallet_balances;
begin
  select * into w from public.wallet_balances where user_id = p_user_id for update;
  if found then
    return w;
  end if;
  insert into public.wallet_balances (user_id) values (p_user_id) on conflict (user_id) do nothing;
  select * into w from public.wallet_balances where user_id = p_user_id for update;
  return w;
end
$function$;
