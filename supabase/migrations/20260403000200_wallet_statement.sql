-- money screens that add up: the ledger as a bank statement (one row per charge whose status moves from on hold
-- to charged or refunded), and checkouts that close: cancelled by their advertiser, or expired once past their
-- expiry even when Stripe's expiry event never arrives.

alter type public.deposit_status add value if not exists 'canceled';
comment on type public.deposit_status is 'Where a deposit stands: pending (checkout open or payment processing), completed (credited), failed (payment failed), expired (checkout closed unpaid), canceled (the advertiser left the checkout). A closed deposit that Stripe later reports paid is still credited.';

create or replace function public.cancel_deposit(p_session_id text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  d public.deposits;
begin
  perform private.require_live_session();
  select * into d from public.deposits
    where stripe_session_id = p_session_id and user_id = (select auth.uid()) for update;
  if not found then
    raise exception 'Deposit not found' using errcode = 'P0002';
  end if;
  -- Only an open checkout closes; a payment already made is never undone (and one made later is still credited).
  if d.status <> 'pending' then
    return jsonb_build_object('id', d.id, 'status', d.status);
  end if;
  update public.deposits set status = 'canceled', failure_reason = 'Canceled at checkout' where id = d.id;
  return jsonb_build_object('id', d.id, 'status', 'canceled');
end
$function$;
comment on function public.cancel_deposit(p_session_id text) is 'The signed-in advertiser closes one of their own open checkouts (cancelled on the payment page, or dismissed on the wallet). Moves no money; a payment Stripe still reports later is credited by complete_deposit.';
revoke execute on function public.cancel_deposit(p_session_id text) from anon, public;

create or replace function public.expire_stale_deposits(p_now timestamp with time zone default now())
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  n integer;
begin
  -- A checkout lives at most 24 hours at Stripe; one without a recorded expiry is judged by that.
  update public.deposits set status = 'expired', failure_reason = coalesce(failure_reason, 'Checkout expired unpaid')
  where status = 'pending' and coalesce(expires_at, created_at + interval '24 hours') <= p_now;
  get diagnostics n = row_count;
  return n;
end
$function$;
comment on function public.expire_stale_deposits(p_now timestamp with time zone) is 'Scheduled, service role only: a pending deposit older than its checkout''s expiry is expired (the backstop for a checkout.session.expired event that never came). Returns how many.';
revoke execute on function public.expire_stale_deposits(p_now timestamp with time zone) from anon, authenticated, public;

select cron.schedule('expire-stale-deposits', '* * * * *', $job$select public.expire_stale_deposits()$job$);

create or replace function private.wallet_statement_of(p_user_id uuid)
 returns table(id uuid, occurred_at timestamptz, kind text, status text, description text, amount numeric,
   refunded numeric, settled_at timestamptz)
 language sql
 stable security definer
 set search_path to ''
as $function$
  -- A charge: the hold row, whose status tells the story (pending = on hold; a debit with its reference =
  -- charged; cancelled without one = refunded). The debit and the zero-amount release are not rows of their own.
  select h.id, h.created_at, 'charge',
    case when h.status = 'pending' then 'on_hold' when d.id is not null then 'charged' else 'refunded' end,
    regexp_replace(coalesce(h.description, 'Subscriber'),
      ' \(on hold during screening\)( — released after screening)?', ''),
    h.amount::numeric(12, 2),
    (case when h.status <> 'pending' and d.id is null then -h.amount else 0 end)::numeric(12, 2),
    case when h.status = 'pending' then null else coalesce(d.created_at, h.updated_at) end
  from public.wallet_transactions h
  left join public.wallet_transactions d
    on d.user_id = h.user_id and d.type = 'debit' and d.reference = h.reference
  where h.user_id = p_user_id and h.type = 'hold'
  union all
  select t.id, t.created_at, t.type::text, t.status::text, t.description, t.amount::numeric(12, 2), 0::numeric(12, 2),
    case when t.status <> 'pending' then t.updated_at end
  from public.wallet_transactions t
  where t.user_id = p_user_id and t.type <> 'hold'
    and not (t.type = 'debit' and exists (
      select 1 from public.wallet_transactions h
      where h.user_id = t.user_id and h.type = 'hold' and h.reference = t.reference))
    and not (t.type = 'release' and t.amount = 0)
$function$;
comment on function private.wallet_statement_of(p_user_id uuid) is 'Internal: a user''s ledger as a bank statement: one row per charge (on_hold, charged or refunded with the amount given back) and every other movement as it is; never a cancelled hold beside its debit, never a 0.00 release.';
revoke execute on function private.wallet_statement_of(p_user_id uuid) from public;

create or replace function public.wallet_statement(p_limit integer default 20, p_offset integer default 0)
 returns table(id uuid, occurred_at timestamptz, kind text, status text, description text, amount numeric,
   refunded numeric, settled_at timestamptz, total_count bigint)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_live_session();
  if p_limit is null or p_limit < 1 or p_limit > 100 then
    raise exception 'Ask for 1 to 100 rows at a time' using errcode = '22023';
  end if;
  if p_offset is null or p_offset < 0 then
    raise exception 'The page cannot be before the first' using errcode = '22023';
  end if;
  return query
  select s.id, s.occurred_at, s.kind, s.status, s.description, s.amount, s.refunded, s.settled_at,
    count(*) over ()
  from private.wallet_statement_of((select auth.uid())) s
  order by s.occurred_at desc, s.id desc
  limit p_limit offset p_offset;
end
$function$;
comment on function public.wallet_statement(p_limit integer, p_offset integer) is 'The signed-in user''s wallet statement, newest first, a page at a time, each row with the total row count: what the wallet''s transaction list shows.';
revoke execute on function public.wallet_statement(p_limit integer, p_offset integer) from anon, public;
