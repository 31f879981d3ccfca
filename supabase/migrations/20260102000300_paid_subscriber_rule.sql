-- What counts as a paid subscriber, and price and budget as promises (PRODUCT "Attribution", "Money").
-- * One rule, private.paid_subscriber_refusal, decides whether a confirmed subscriber is paid for, with a
--   reason code for every refusal: source_inactive, self_referral, duplicate_email (canonical email, once per
--   campaign, ever), no_click (a counted click of the same source by the same visitor within 24 hours),
--   velocity (one visitor or IP at most 3 paid conversions an hour per source), too_fast_confirmation (2 s).
-- * A subscription made through a source reserves its price (locked when it is made) against the campaign's
--   remaining budget and the advertiser's available balance. Confirming turns the reservation into the hold;
--   expiry (48 h) or refusal releases it. So lowering the budget or the price, or pausing, can never leave a
--   confirmed subscriber unpaid: what was promised was set aside.
-- * Re-submitting someone's pending subscription refreshes its link but never moves its attribution.
-- * The balances the screens show and the money functions check come from one place:
--   advertiser_balance() and publisher_balance().

-- Canonical email: case, +tags everywhere, and Gmail's dots and googlemail.com.
create function public.canonical_email(p_email text)
returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select case
    when d in ('gmail.com', 'googlemail.com') then replace(l, '.', '') || '@gmail.com'
    when d = '' then l
    else l || '@' || d
  end
  from (
    select split_part(split_part(e, '@', 1), '+', 1) as l, split_part(e, '@', 2) as d
    from (select lower(trim(coalesce(p_email, ''))) as e) a
  ) parts
$$;
comment on function public.canonical_email(text) is
  'One inbox, one address: lower case, +tag removed, and for Gmail dots removed and googlemail.com folded into gmail.com.';
revoke execute on function public.canonical_email(text) from public;
grant execute on function public.canonical_email(text) to anon, authenticated, service_role;

alter table public.newsletter_subscriptions drop column email_folded;
alter table public.newsletter_subscriptions
  add column email_canonical text generated always as (public.canonical_email(email::text)) stored,
  add column visitor_hash text,
  add column reserved_amount numeric(12, 2) not null default 0 check (reserved_amount >= 0),
  add column first_paid_at timestamptz,
  add column attributed_at timestamptz;
comment on column public.newsletter_subscriptions.attributed_at is
  'When the current source and click were attached (the subscribe request); the click must precede it by at most 24 hours.';
comment on column public.newsletter_subscriptions.first_paid_at is
  'When this address was first paid for on this campaign; never cleared (refunds, unsubscribes and re-subscribes keep it), so an inbox pays once per campaign, ever.';
update public.newsletter_subscriptions set first_paid_at = coalesce(confirmed_at, created_at)
  where counted or (price is not null and confirmed_at is not null);
comment on column public.newsletter_subscriptions.price is
  'The campaign''s price when the subscription was made through a source: what a confirmation charges, whatever the price is by then.';
comment on column public.newsletter_subscriptions.reserved_amount is
  'Set aside from the campaign budget and the advertiser''s available balance until confirmed (then held), expired or refused (then released).';
create index newsletter_subscriptions_canonical_idx on public.newsletter_subscriptions (campaign_id, email_canonical);
create index newsletter_subscriptions_source_confirmed_idx on public.newsletter_subscriptions (audience_source_id, confirmed_at desc)
  where counted;
create index newsletter_subscriptions_reserved_idx on public.newsletter_subscriptions (token_expires_at)
  where reserved_amount > 0;

alter table public.newsletter_subscriptions drop constraint newsletter_subscriptions_not_counted_reason_check;
alter table public.newsletter_subscriptions add constraint newsletter_subscriptions_not_counted_reason_check
  check (not_counted_reason in ('source_inactive', 'self_referral', 'disposable_email', 'duplicate_email',
    'too_fast_confirmation', 'no_click', 'velocity', 'budget_exhausted'));

alter table public.campaigns
  add column budget_reserved numeric(12, 2) not null default 0 check (budget_reserved >= 0),
  add column reservations_open integer not null default 0 check (reservations_open >= 0);
comment on column public.campaigns.budget_reserved is
  'Sum of the prices reserved by pending subscriptions made through a source; counts against the budget and the advertiser''s balance.';
comment on column public.campaigns.reservations_open is 'How many pending subscriptions hold a reservation (the overview says so when paused).';

-- The budget can be raised at any time and lowered only down to what is spent, held and reserved.
create function private.guard_campaign_budget()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.budget_total < new.budget_spent + new.budget_reserved then
    raise exception 'The budget can''t be lower than what is already spent, on hold or reserved (% credits)',
      to_char(new.budget_spent + new.budget_reserved, 'FM999999990.00')
      using errcode = '23514', hint = 'Raise the budget, or wait until open reservations expire.';
  end if;
  return new;
end
$$;
comment on function private.guard_campaign_budget() is 'Refuses a budget below spent + held + reserved with a message a person can act on.';
revoke execute on function private.guard_campaign_budget() from public, anon, authenticated, service_role;
create trigger campaigns_guard_budget before insert or update of budget_total, budget_spent, budget_reserved on public.campaigns
  for each row execute function private.guard_campaign_budget();
alter table public.campaigns drop constraint campaigns_check;
alter table public.campaigns add constraint campaigns_budget_covers_commitments
  check (budget_spent >= 0 and budget_spent + budget_reserved <= budget_total);

-- Reservations are part of what an advertiser can no longer spend.
create or replace function public.wallet_available(p_user_id uuid)
returns numeric
language sql stable
security definer
set search_path = ''
as $$
  select coalesce((select balance from public.wallet_balances where user_id = p_user_id), 0)
       + coalesce((select sum(amount) from public.wallet_transactions
                   where user_id = p_user_id and type = 'hold' and status = 'pending'), 0)
       - coalesce((select sum(budget_reserved) from public.campaigns where advertiser_id = p_user_id), 0)
$$;
comment on function public.wallet_available(uuid) is
  'Internal: what an advertiser can still promise — balance minus pending holds minus reservations.';

create function public.campaign_funding_status(
  p_advertiser_id uuid, p_price numeric, p_budget_total numeric, p_budget_spent numeric, p_budget_reserved numeric
)
returns text
language sql stable
security definer
set search_path = ''
as $$
  select case
    when p_budget_total - p_budget_spent - p_budget_reserved < p_price then 'budget_exhausted'
    when public.wallet_available(p_advertiser_id) < p_price then 'balance_exhausted'
    else 'funded'
  end
$$;
comment on function public.campaign_funding_status(uuid, numeric, numeric, numeric, numeric) is
  'Whether a campaign can promise one more subscriber from its remaining budget (after spend and reservations) and its advertiser''s available balance.';
revoke execute on function public.campaign_funding_status(uuid, numeric, numeric, numeric, numeric) from public, anon, authenticated, service_role;

create or replace function public.set_campaign_funding_status()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.funding_status := public.campaign_funding_status(new.advertiser_id, new.price_per_subscriber,
    new.budget_total, new.budget_spent, new.budget_reserved);
  return new;
end
$$;

create or replace function public.refresh_campaign_funding(p_advertiser_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.campaigns c set funding_status = c.funding_status
  where c.advertiser_id = p_advertiser_id
    and c.funding_status is distinct from public.campaign_funding_status(
      c.advertiser_id, c.price_per_subscriber, c.budget_total, c.budget_spent, c.budget_reserved)
$$;
drop function public.campaign_funding_status(uuid, numeric, numeric, numeric);

-- Balances, one definition for every screen and every check.
create function private.advertiser_balance_of(p_user_id uuid)
returns table (available numeric, reserved numeric, on_hold numeric, balance numeric)
language sql stable
security definer
set search_path = ''
as $$
  select (b.balance - h.on_hold - r.reserved)::numeric(12, 2), r.reserved::numeric(12, 2), h.on_hold::numeric(12, 2),
         b.balance::numeric(12, 2)
  from (select coalesce((select w.balance from public.wallet_balances w where w.user_id = p_user_id), 0) as balance) b,
       (select coalesce(-sum(t.amount), 0) as on_hold from public.wallet_transactions t
        where t.user_id = p_user_id and t.type = 'hold' and t.status = 'pending') h,
       (select coalesce(sum(c.budget_reserved), 0) as reserved from public.campaigns c where c.advertiser_id = p_user_id) r
$$;
comment on function private.advertiser_balance_of(uuid) is 'An advertiser''s money: balance (settled), on hold (screening), reserved (pending subscriptions), available.';
revoke execute on function private.advertiser_balance_of(uuid) from public, anon, authenticated, service_role;

create function private.publisher_balance_of(p_user_id uuid)
returns table (pending numeric, available numeric, requested numeric, paid numeric)
language sql stable
security definer
set search_path = ''
as $$
  select e.pending::numeric(12, 2), (b.balance - q.requested)::numeric(12, 2), q.requested::numeric(12, 2), p.paid::numeric(12, 2)
  from (select coalesce((select w.balance from public.wallet_balances w where w.user_id = p_user_id), 0) as balance) b,
       (select coalesce(sum(t.amount), 0) as pending from public.wallet_transactions t
        where t.user_id = p_user_id and t.type = 'earning' and t.status = 'pending') e,
       (select coalesce(sum(r.amount), 0) as requested from public.payout_requests r
        where r.publisher_id = p_user_id and r.status = 'requested') q,
       (select coalesce(-sum(t.amount), 0) as paid from public.wallet_transactions t
        where t.user_id = p_user_id and t.type = 'payout' and t.status = 'completed') p
$$;
comment on function private.publisher_balance_of(uuid) is
  'A publisher''s money: pending (in screening), available (settled earnings − paid − requested), requested, paid.';
revoke execute on function private.publisher_balance_of(uuid) from public, anon, authenticated, service_role;

create function public.advertiser_balance()
returns table (available numeric, reserved numeric, on_hold numeric, balance numeric)
language sql stable
security definer
set search_path = ''
as $$
  select * from private.advertiser_balance_of((select auth.uid()))
$$;
comment on function public.advertiser_balance() is 'The signed-in advertiser''s available, reserved, on-hold and settled balance (what subscribe and confirm check).';
revoke execute on function public.advertiser_balance() from public, anon, authenticated;
grant execute on function public.advertiser_balance() to authenticated;

create function public.publisher_balance()
returns table (pending numeric, available numeric, requested numeric, paid numeric)
language sql stable
security definer
set search_path = ''
as $$
  select * from private.publisher_balance_of((select auth.uid()))
$$;
comment on function public.publisher_balance() is 'The signed-in publisher''s pending, available, requested and paid earnings (what request_payout checks).';
revoke execute on function public.publisher_balance() from public, anon, authenticated;
grant execute on function public.publisher_balance() to authenticated;

create or replace function public.request_payout(p_amount numeric)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  r public.payout_requests;
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
  perform public.lock_wallet(me);
  if (select available from private.publisher_balance_of(me)) < p_amount then
    raise exception 'You can only withdraw available earnings (% credits available)',
      to_char((select available from private.publisher_balance_of(me)), 'FM999999990.00') using errcode = '22023';
  end if;
  insert into public.payout_requests (publisher_id, amount) values (me, p_amount) returning * into r;
  return jsonb_build_object('id', r.id, 'amount', r.amount, 'status', r.status);
end
$$;

-- Releases a subscription's reservation (confirm, expiry, refusal, source banned); returns the amount released.
-- Callers lock the advertiser's wallet first (the ledger's lock order: wallet, then campaign).
create function private.release_reservation(p_subscription_id uuid)
returns numeric
language plpgsql
security definer
set search_path = ''
as $$
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
  perform public.refresh_campaign_funding((select advertiser_id from public.campaigns where id = cid));
  return amount;
end
$$;
comment on function private.release_reservation(uuid) is 'Internal: gives a subscription''s reserved price back to the campaign budget and the advertiser''s available balance.';
revoke execute on function private.release_reservation(uuid) from public, anon, authenticated, service_role;

-- Does a counted click of this source by this visitor precede the subscription by at most 24 hours?
create function private.click_backs_subscription(
  p_click_id uuid, p_source_id uuid, p_ip text, p_user_agent text, p_at timestamptz
)
returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.link_clicks l
    where l.id = p_click_id and l.audience_source_id = p_source_id and l.counted
      and l.created_at <= p_at and l.created_at > p_at - interval '24 hours'
      -- Same visitor: the address and browser of the click (raw IPs are kept 30 days, the window is 24 hours,
      -- so this is the visitor hash without depending on which day's salt made it).
      and l.ip is not distinct from p_ip and l.user_agent is not distinct from p_user_agent
  )
$$;
comment on function private.click_backs_subscription(uuid, uuid, text, text, timestamptz) is
  'Internal: the no_click rule — a counted click of the same source by the same visitor within 24 hours before subscribing.';
revoke execute on function private.click_backs_subscription(uuid, uuid, text, text, timestamptz) from public, anon, authenticated, service_role;

-- THE paid-subscriber rule. Null = this attributed subscriber is paid for; otherwise the reason code.
-- p_confirming adds the checks that only make sense at confirmation (velocity, too fast).
create function private.paid_subscriber_refusal(s public.newsletter_subscriptions, p_confirming boolean)
returns text
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  src public.audience_sources;
  c public.campaigns;
begin
  select * into src from public.audience_sources where id = s.audience_source_id;
  select * into c from public.campaigns where id = s.campaign_id;
  if not found or not public.is_source_public(src.status) then
    return 'source_inactive';
  end if;
  if s.email_canonical in (
       select public.canonical_email(p.email::text) from public.profiles p where p.id in (src.publisher_id, c.advertiser_id)) then
    return 'self_referral';
  end if;
  -- Once per campaign, ever: an inbox that was paid for (even if refunded since) never pays twice.
  if s.first_paid_at is not null
     or exists (select 1 from public.newsletter_subscriptions o
                where o.campaign_id = s.campaign_id and o.email_canonical = s.email_canonical and o.id <> s.id
                  and o.first_paid_at is not null) then
    return 'duplicate_email';
  end if;
  if s.click_id is null
     or not private.click_backs_subscription(s.click_id, s.audience_source_id, s.subscribe_ip, s.subscribe_user_agent,
                                                coalesce(s.attributed_at, s.created_at)) then
    return 'no_click';
  end if;
  if p_confirming then
    if (select count(*) from public.newsletter_subscriptions o
        where o.audience_source_id = s.audience_source_id and o.counted and o.id <> s.id
          and o.confirmed_at > now() - interval '1 hour'
          and (o.visitor_hash = s.visitor_hash or o.subscribe_ip = s.subscribe_ip)) >= 3 then
      return 'velocity';
    end if;
    if clock_timestamp() - s.armed_at < interval '2 seconds' then
      return 'too_fast_confirmation';
    end if;
  end if;
  return null;
end
$$;
comment on function private.paid_subscriber_refusal(public.newsletter_subscriptions, boolean) is
  'PRODUCT "What counts as a paid subscriber", in one place: null when the attributed subscriber is paid for, else the reason code.';
revoke execute on function private.paid_subscriber_refusal(public.newsletter_subscriptions, boolean) from public, anon, authenticated, service_role;

create or replace function public.create_pending_subscriptions(
  p_email text, p_campaign_ids uuid[], p_token_hashes text[], p_audience_source_id uuid default null,
  p_click_id uuid default null, p_ip text default null, p_user_agent text default null
)
returns table (campaign_id uuid, campaign_name text, result text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  addr text := lower(trim(coalesce(p_email, '')));
  i integer;
  c public.campaigns;
  s public.newsletter_subscriptions;
  v_source_id uuid := p_audience_source_id;
  v_click_id uuid := p_click_id;
  ip text := left(p_ip, 100);
  agent text := left(p_user_agent, 1000);
  hash text;
  existing boolean;
  fresh boolean;
begin
  if addr !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' or char_length(addr) > 254 then
    raise exception 'Please enter a valid email address' using errcode = '22023';
  end if;
  if coalesce(cardinality(p_campaign_ids), 0) = 0 then
    raise exception 'Choose at least one newsletter' using errcode = '22023';
  end if;
  if cardinality(p_campaign_ids) <> coalesce(cardinality(p_token_hashes), 0)
     or (select count(distinct x) from unnest(p_campaign_ids) x) <> cardinality(p_campaign_ids) then
    raise exception 'Each newsletter needs its own confirmation token' using errcode = '22023';
  end if;
  -- A click id is only trusted when it belongs to the given source (or names the source itself).
  if v_click_id is not null then
    select coalesce(v_source_id, l.audience_source_id) into v_source_id from public.link_clicks l
      where l.id = v_click_id and (v_source_id is null or l.audience_source_id = v_source_id);
    if not found then
      v_click_id := null;
      v_source_id := p_audience_source_id;
    end if;
  end if;
  if v_source_id is not null and not exists (select 1 from public.audience_sources where id = v_source_id) then
    v_source_id := null;
    v_click_id := null;
  end if;
  hash := private.visitor_hash(ip, agent, current_date);

  for i in 1 .. cardinality(p_campaign_ids) loop
    if not exists (select 1 from public.campaigns where id = p_campaign_ids[i]) then
      raise exception 'This newsletter is not accepting subscribers' using errcode = '22023';
    end if;
    -- Lock order of every money function: the advertiser's wallet, then the campaign.
    perform public.lock_wallet((select advertiser_id from public.campaigns where id = p_campaign_ids[i]));
    select * into c from public.campaigns where id = p_campaign_ids[i] for update;
    select * into s from public.newsletter_subscriptions n
      where n.campaign_id = p_campaign_ids[i] and n.email = addr::extensions.citext for update;
    existing := found;
    campaign_id := c.id; campaign_name := c.name;

    if existing and s.status in ('confirmed', 'rejected') then
      result := case when s.status = 'confirmed' then 'already_confirmed' else s.status end;
      return next;
      continue;
    end if;
    -- A live pending subscription gets a new link and keeps everything else, attribution above all:
    -- whoever re-submits someone's address cannot move it to their own source.
    fresh := not existing or s.status <> 'pending' or s.token_expires_at <= now();
    if not fresh then
      update public.newsletter_subscriptions set token_hash = p_token_hashes[i],
        token_expires_at = now() + interval '48 hours', armed_at = clock_timestamp()
        where id = s.id;
      result := 'pending';
      return next;
      continue;
    end if;

    if c.id is null or c.status <> 'active' or c.funding_status <> 'funded' then
      raise exception 'This newsletter is not accepting subscribers' using errcode = '22023';
    end if;
    if existing then
      perform private.release_reservation(s.id);
      update public.newsletter_subscriptions set
        status = 'pending', token_hash = p_token_hashes[i], token_expires_at = now() + interval '48 hours',
        armed_at = clock_timestamp(), audience_source_id = v_source_id, click_id = v_click_id,
        counted = false, not_counted_reason = null, price = null, confirmed_at = null,
        subscribe_ip = ip, subscribe_user_agent = agent, visitor_hash = hash, attributed_at = clock_timestamp()
        where id = s.id
        returning * into s;
    else
      insert into public.newsletter_subscriptions
        (campaign_id, email, status, token_hash, token_expires_at, armed_at, audience_source_id, click_id,
         subscribe_ip, subscribe_user_agent, visitor_hash, attributed_at)
      values (c.id, addr, 'pending', p_token_hashes[i], now() + interval '48 hours', clock_timestamp(), v_source_id,
        v_click_id, ip, agent, hash, clock_timestamp())
      returning * into s;
    end if;

    -- Reserve the price now for a subscriber the rule would pay for, so the promise holds at confirmation.
    if v_source_id is not null and private.paid_subscriber_refusal(s, false) is null then
      if c.budget_total - c.budget_spent - c.budget_reserved < c.price_per_subscriber
         or public.wallet_available(c.advertiser_id) < c.price_per_subscriber then
        raise exception 'This newsletter is not accepting subscribers' using errcode = '22023';
      end if;
      update public.newsletter_subscriptions set price = c.price_per_subscriber, reserved_amount = c.price_per_subscriber
        where id = s.id;
      update public.campaigns set budget_reserved = budget_reserved + c.price_per_subscriber,
        reservations_open = reservations_open + 1
        where id = c.id;
      perform public.refresh_campaign_funding(c.advertiser_id);
    end if;
    result := 'pending';
    return next;
  end loop;
end
$$;
comment on function public.create_pending_subscriptions(text, uuid[], text[], uuid, uuid, text, text) is
  'subscribe edge function, service role only: one pending row per campaign (new, or re-armed when expired or unsubscribed; a live pending one only gets a new token and keeps its attribution). Reserves the locked price when the subscriber would be paid for. result: pending | already_confirmed | rejected. All or nothing.';

create or replace function public.confirm_subscription(
  p_token_hash text, p_email text, p_ip text default null, p_user_agent text default null
)
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
comment on function public.confirm_subscription(text, text, text, text) is
  'verify-subscription edge function, service role only: confirms once within 48 h; applies the paid-subscriber rule; a paid subscriber turns its reservation into a hold at the locked price (counted=false with a null reason means an unattributed, free subscriber).';

create function public.expire_reservations(p_now timestamptz default now())
returns integer
language plpgsql
security definer
set search_path = ''
as $$
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
    perform public.lock_wallet(s.advertiser_id);
    perform private.release_reservation(s.id);
    update public.newsletter_subscriptions set status = 'expired' where id = s.id and status = 'pending';
    expired := expired + 1;
  end loop;
  return expired;
end
$$;
comment on function public.expire_reservations(timestamptz) is
  'Scheduled, service role only: pending subscriptions past their 48 hours expire and give their reservation back. Idempotent; concurrent runs skip each other''s rows.';
revoke execute on function public.expire_reservations(timestamptz) from public, anon, authenticated;
grant execute on function public.expire_reservations(timestamptz) to service_role;

-- Advertisers see their confirmed subscribers only (email, confirmed at, source, status), never pending
-- ones, tokens, IPs or browser strings. Admins read evidence through admin functions.
drop policy "Advertisers can read subscribers of their campaigns" on public.newsletter_subscriptions;
create policy "Advertisers can read confirmed subscribers of their campaigns"
  on public.newsletter_subscriptions for select to authenticated
  using (
    confirmed_at is not null
    and exists (select 1 from public.campaigns c where c.id = campaign_id and c.advertiser_id = (select auth.uid()))
  );
revoke select on public.newsletter_subscriptions from anon, authenticated;
grant select (id, campaign_id, email, status, confirmed_at, audience_source_id, counted, not_counted_reason, price,
  created_at, updated_at) on public.newsletter_subscriptions to authenticated;

-- The wallet summary agrees with advertiser_balance(): available leaves out reservations too.
create or replace view public.wallets with (security_invoker = true) as
  select
    w.id,
    w.user_id,
    w.balance,
    coalesce(h.held, 0)::numeric(12, 2) as held,
    (w.balance - coalesce(h.held, 0) - coalesce(r.reserved, 0))::numeric(12, 2) as available,
    coalesce(e.pending_earnings, 0)::numeric(12, 2) as pending_earnings,
    w.created_at,
    w.updated_at,
    coalesce(r.reserved, 0)::numeric(12, 2) as reserved
  from public.wallet_balances w
  left join lateral (
    select -sum(t.amount) as held from public.wallet_transactions t
    where t.user_id = w.user_id and t.type = 'hold' and t.status = 'pending'
  ) h on true
  left join lateral (
    select sum(t.amount) as pending_earnings from public.wallet_transactions t
    where t.user_id = w.user_id and t.type = 'earning' and t.status = 'pending'
  ) e on true
  left join lateral (
    select sum(c.budget_reserved) as reserved from public.campaigns c where c.advertiser_id = w.user_id
  ) r on true;
comment on view public.wallets is
  'Wallet summary for screens: balance, held (pending holds), reserved (pending subscriptions), available (balance minus both) and pending earnings. Invoker rights: the wallet_balances policies apply.';
