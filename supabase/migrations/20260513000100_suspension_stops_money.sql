-- Suspension stops money (issue 37, "Suspension does not stop money"; PRODUCT "Fair to both sides").
--
-- The attack: after an admin suspended a publisher and an advertiser, the publisher's /earn link still produced paid
-- subscribers charged to the suspended advertiser, that newsletter stayed listed, and both accounts' access tokens
-- issued before the suspension still wrote: price and budget changed (200), a campaign (201) and a source (201) were
-- created. Sign-in, refresh, the edge functions and request_payout already refused them.
--
-- One rule, public.account_is_suspended(uuid): auth.users.banned_until is ahead (what admin_set_user_suspended and
-- GoTrue's own ban set, and what sign-in and refresh already obey). Everything below asks it:
--   * Writes. A statement trigger on every table an account writes, through the API or through the functions it calls
--     (private.refuse_suspended_writer), refuses a suspended caller with one sentence, whatever its token. A trigger
--     rather than restrictive policies: the functions an owner calls (set_campaign_paused, submit_revision,
--     open_dispute, …) are security definer and bypass policies, and a USING clause that fails makes a PATCH match
--     nothing and answer 200, where the account must read why. require_live_session (every money and admin
--     function) says the same sentence before "Your session has ended".
--   * Earning and paying. private.paid_subscriber_refusal answers `account_suspended` when the source's publisher or
--     the newsletter's advertiser is suspended: no reservation at subscribe, nothing charged at confirmation.
--   * Listing. A suspended advertiser's newsletters leave the public list (the campaigns policies for visitors and
--     signed-in users), the publishers' offers, and read as closed on their own page.
--   * What was earned before. Holds and earnings of a subscriber whose advertiser or publisher is suspended are not
--     settled (settle_matured_holds skips them) and not refunded: they wait for an admin. Reinstating releases them to
--     the next settlement run; admin_refund_held_money refunds them through refund_subscription, the path of an upheld
--     dispute. Requested payouts of a suspended publisher are not sent (a transfer already sending is still finished,
--     so a lost answer is never paid twice), and no automatic payout is requested for them.

alter type public.not_counted_reason add value if not exists 'account_suspended' after 'source_inactive';

alter table public.newsletter_subscriptions drop constraint newsletter_subscriptions_not_counted_reason_check;
alter table public.newsletter_subscriptions add constraint newsletter_subscriptions_not_counted_reason_check
  check ((not_counted_reason = any (array['source_inactive'::text, 'account_suspended'::text, 'self_referral'::text, 'disposable_email'::text, 'duplicate_email'::text, 'too_fast_confirmation'::text, 'no_click'::text, 'velocity'::text, 'address_velocity'::text, 'budget_exhausted'::text, 'refunded'::text])));

update public.not_counted_reasons set position = position + 1 where position >= 5;
insert into public.not_counted_reasons (code, label, applies_to, position) values
  ('account_suspended', 'Account suspended', '{subscription}', 5);

-- === The rule ==============================================================================================

create function public.account_is_suspended(p_user_id uuid)
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select exists (select 1 from auth.users u where u.id = p_user_id and u.banned_until > now())
$function$;
comment on function public.account_is_suspended(p_user_id uuid) is 'The one suspension rule: the account is banned (auth.users.banned_until ahead, as admin_set_user_suspended and the auth server set it). Writes, the paid-subscriber rule, settlement, payouts and the public list all ask it; public because the campaigns policies for visitors call it.';
revoke execute on function public.account_is_suspended(p_user_id uuid) from public;
grant execute on function public.account_is_suspended(p_user_id uuid) to anon, authenticated, service_role;

create function private.require_active_account()
 returns void
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  -- Visitors have no account, and the service role (edge functions, jobs) acts for the platform.
  if (select auth.role()) = 'authenticated' and public.account_is_suspended((select auth.uid())) then
    raise exception 'Your account is suspended. Contact us to appeal.' using errcode = '42501',
      hint = 'An admin suspended this account. Write to us from the contact page; we answer every appeal.';
  end if;
end
$function$;
comment on function private.require_active_account() is 'Internal: refuses a suspended caller in a sentence that says why and how to appeal, whatever token it holds. Called by every write (refuse_suspended_writer) and by require_live_session.';
revoke execute on function private.require_active_account() from public;

create function private.refuse_suspended_writer()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  perform private.require_active_account();
  return null;
end
$function$;
comment on function private.refuse_suspended_writer() is 'Internal trigger (before each statement): a suspended account writes nothing, through the API or through any function it calls.';
revoke execute on function private.refuse_suspended_writer() from public;

-- Every table an account's own request writes (directly, or through the functions granted to authenticated).
-- contact_messages stays open: it is where a suspended account appeals.
create trigger profiles_refuse_suspended before insert or update or delete on public.profiles
  for each statement execute function private.refuse_suspended_writer();
create trigger campaigns_refuse_suspended before insert or update or delete on public.campaigns
  for each statement execute function private.refuse_suspended_writer();
create trigger audience_sources_refuse_suspended before insert or update or delete on public.audience_sources
  for each statement execute function private.refuse_suspended_writer();
create trigger content_revisions_refuse_suspended before insert or update or delete on public.content_revisions
  for each statement execute function private.refuse_suspended_writer();
create trigger wallet_balances_refuse_suspended before insert or update or delete on public.wallet_balances
  for each statement execute function private.refuse_suspended_writer();
create trigger wallet_transactions_refuse_suspended before insert or update or delete on public.wallet_transactions
  for each statement execute function private.refuse_suspended_writer();
create trigger deposits_refuse_suspended before insert or update or delete on public.deposits
  for each statement execute function private.refuse_suspended_writer();
create trigger payout_accounts_refuse_suspended before insert or update or delete on public.payout_accounts
  for each statement execute function private.refuse_suspended_writer();
create trigger payout_requests_refuse_suspended before insert or update or delete on public.payout_requests
  for each statement execute function private.refuse_suspended_writer();
create trigger disputes_refuse_suspended before insert or update or delete on public.disputes
  for each statement execute function private.refuse_suspended_writer();
create trigger dispute_subscriptions_refuse_suspended before insert or update or delete on public.dispute_subscriptions
  for each statement execute function private.refuse_suspended_writer();
create trigger webhook_endpoints_refuse_suspended before insert or update or delete on public.webhook_endpoints
  for each statement execute function private.refuse_suspended_writer();
create trigger webhook_deliveries_refuse_suspended before insert or update or delete on public.webhook_deliveries
  for each statement execute function private.refuse_suspended_writer();
create trigger esp_connections_refuse_suspended before insert or update or delete on public.esp_connections
  for each statement execute function private.refuse_suspended_writer();
create trigger esp_deliveries_refuse_suspended before insert or update or delete on public.esp_deliveries
  for each statement execute function private.refuse_suspended_writer();

create or replace function private.require_live_session()
 returns void
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  -- A suspended account is told so (and how to appeal) before anything about its session.
  perform private.require_active_account();
  if not public.session_is_live() then
    raise exception 'Your session has ended. Sign in again.' using errcode = '42501',
      hint = 'You signed out on this device or everywhere, or your password changed; sign in to continue.';
  end if;
end
$function$;
comment on function private.require_live_session() is 'First line of every function that moves money or uses admin rights: refuses a suspended account (require_active_account), then a token whose session has ended.';

create or replace function public.session_is_live()
 returns boolean
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  sid text := (select auth.jwt()) ->> 'session_id';
begin
  -- Visitors have no session, and the service role (edge functions, jobs) is trusted by construction.
  if (select auth.role()) is distinct from 'authenticated' then
    return true;
  end if;
  if sid is null or sid !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return false;
  end if;
  -- not_after (hosted GoTrue's time-boxed sessions) is read through to_jsonb: the local table has no such column.
  -- A suspended user has no live session even if a token was issued before the suspension.
  return exists (
    select 1 from auth.sessions s
    where s.id = sid::uuid and s.user_id = (select auth.uid())
      and coalesce((to_jsonb(s) ->> 'not_after')::timestamptz, 'infinity') > now())
    and not public.account_is_suspended((select auth.uid()));
end
$function$;

-- === Listing: a suspended advertiser's newsletters leave the list ==========================================

alter policy "Visitors can read active funded campaigns" on public.campaigns
  using (status = 'active' and funding_status = 'funded' and not public.account_is_suspended(advertiser_id));
alter policy "Signed-in users can read active funded campaigns" on public.campaigns
  using (status = 'active' and funding_status = 'funded' and not public.account_is_suspended(advertiser_id));

create or replace function public.newsletter_availability(p_campaign_id uuid)
 returns text
 language sql
 stable security definer
 set search_path to ''
as $function$
  select case
    when c.id is null or c.status in ('draft', 'pending_review', 'rejected', 'banned') then 'not_found'
    -- A suspended advertiser's newsletter reads as closed: nothing alarming for the reader, nothing to subscribe to.
    when public.account_is_suspended(c.advertiser_id) then 'closed'
    when c.status = 'active' and c.funding_status = 'funded' then 'open'
    when c.status = 'active' then 'out_of_budget'
    when c.status = 'paused' then 'paused'
    else 'closed'
  end
  from (select 1) one
  left join public.campaigns c on c.id = p_campaign_id
$function$;
comment on function public.newsletter_availability(p_campaign_id uuid) is 'For the public newsletter pages: whether a newsletter is open, out of budget (active but unable to pay one more subscriber), paused, closed (completed, archived, or its advertiser suspended) or not found (unknown or never approved), so a visitor reads why it cannot be subscribed to.';

create or replace function public.publisher_offers()
 returns table(campaign_id uuid, name text, description text, image_url text, website_url text, category text, price numeric, earning numeric, funding_status text, subscribers_left integer, confirmation_rate numeric, settled_subscriptions integer)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select c.id, c.name, c.description, c.image_url, c.website_url, c.category, c.price_per_subscriber,
    private.publisher_earning(c.price_per_subscriber), c.funding_status,
    greatest(floor((c.budget_total - c.budget_spent - c.budget_reserved) / c.price_per_subscriber), 0)::integer,
    case when r.settled >= 5 then round(r.confirmed * 100.0 / r.settled, 1) end::numeric(5, 1),
    coalesce(r.settled, 0)::integer
  from public.campaigns c
  left join lateral (
    -- Subscriptions of the last 30 days whose outcome is known: confirmed, or no longer waiting for a click.
    select count(*) filter (where s.confirmed_at is not null) as confirmed,
      count(*) filter (where s.confirmed_at is not null or s.status <> 'pending' or s.token_expires_at <= now()) as settled
    from public.newsletter_subscriptions s
    where s.campaign_id = c.id and s.created_at > now() - interval '30 days'
  ) r on true
  where c.status = 'active' and (select auth.uid()) is not null
    -- A suspended advertiser's newsletter pays nobody: it is not offered.
    and not public.account_is_suspended(c.advertiser_id)
  order by c.funding_status = 'funded' desc, c.price_per_subscriber desc, c.name, c.id
$function$;
comment on function public.publisher_offers() is 'Every active newsletter a publisher can promote (not those of a suspended advertiser): what the publisher earns per paid subscriber (private.publisher_earning), its category, whether it can pay one more subscriber (funding_status) and how many its remaining budget still pays, and its confirmation rate over the last 30 days (null below 5 subscriptions with a known outcome).';

-- === Earning and paying: the paid-subscriber rule ==========================================================

create or replace function private.paid_subscriber_refusal(s public.newsletter_subscriptions, p_confirming boolean)
 returns text
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  src public.audience_sources;
  c public.campaigns;
begin
  select * into src from public.audience_sources where id = s.audience_source_id;
  select * into c from public.campaigns where id = s.campaign_id;
  if not found or not public.is_source_public(src.status) then
    return 'source_inactive';
  end if;
  -- A suspended publisher's links stop earning and a suspended advertiser's newsletters stop paying.
  if public.account_is_suspended(src.publisher_id) or public.account_is_suspended(c.advertiser_id) then
    return 'account_suspended';
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
    -- One visitor (address and browser) converts at most 3 times an hour for one source; one address, shared by a
    -- household or an office Wi-Fi, at most 10. Each limit has its own reason, so the label says which.
    if (select count(*) from public.newsletter_subscriptions o
        where o.audience_source_id = s.audience_source_id and o.counted and o.id <> s.id
          and o.confirmed_at > now() - interval '1 hour'
          and o.visitor_hash = s.visitor_hash) >= 3 then
      return 'velocity';
    end if;
    if s.subscribe_ip is not null and (select count(*) from public.newsletter_subscriptions o
        where o.audience_source_id = s.audience_source_id and o.counted and o.id <> s.id
          and o.confirmed_at > now() - interval '1 hour'
          and o.subscribe_ip = s.subscribe_ip) >= 10 then
      return 'address_velocity';
    end if;
    if clock_timestamp() - s.armed_at < interval '2 seconds' then
      return 'too_fast_confirmation';
    end if;
  end if;
  return null;
end
$function$;

-- === What was earned before: held until an admin decides ===================================================

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
comment on function public.settle_matured_holds(p_now timestamp with time zone, p_max_rows integer, p_max_duration interval) is 'Scheduled, service role only: after screening each hold is released as a completed debit and each earning (once its hold settled) becomes available; a subscriber with a pending hold or earning of a suspended account waits, on both sides, until an admin reinstates or refunds. Row by row: a row that cannot settle stays pending and is recorded in settlement_failures; the others settle. At most p_max_rows rows and about p_max_duration of work per call (the scheduled job settles in small batches); without them, everything due. Returns how many rows settled.';

create or replace function public.claim_due_payouts(p_limit integer default 10)
 returns table(id uuid, publisher_id uuid, amount numeric, destination text, attempts integer, idempotency_key text)
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
    -- A suspended publisher's request waits for an admin (not failed: nothing earned is taken); one already sending
    -- is finished, since its transfer may exist.
    where (r.status = 'requested' and a.state = 'ready' and not public.account_is_suspended(r.publisher_id))
       or (r.status = 'sending' and r.locked_until < now())
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
$function$;
comment on function public.claim_due_payouts(p_limit integer) is 'send-payouts, service role only: takes up to p_limit requested payouts of publishers whose Stripe account is ready and who are not suspended (and ones whose sender died, after their 5-minute lease) as sending; skip locked, so two runs never take the same one. A requested payout whose account is no longer ready is not sent: it fails with the reason (failed_before_transfer), its amount available again, and the publisher is emailed. A suspended publisher''s requested payout waits, requested, for an admin''s decision. Returns the Stripe idempotency key of each claimed payout: the payout id (with the admin''s retry count after a retry).';

create or replace function private.dispatch_payouts()
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
  -- Automatic payouts: everything available, once it reaches the minimum, with nothing already on its way; none for
  -- a suspended publisher (their money waits for an admin).
  for a in
    select p.publisher_id from public.payout_accounts p
    where p.auto_payout and p.state = 'ready'
      and not exists (select 1 from public.payout_requests r
                      where r.publisher_id = p.publisher_id and r.status in ('requested', 'sending'))
      and not public.account_is_suspended(p.publisher_id)
  loop
    perform private.lock_wallet(a.publisher_id);
    amount := (select available from private.publisher_balance_of(a.publisher_id));
    if amount >= 50 then
      insert into public.payout_requests (publisher_id, amount) values (a.publisher_id, amount);
    end if;
  end loop;
  select count(*) into due from public.payout_requests r
  where ((r.status = 'requested' and not public.account_is_suspended(r.publisher_id))
         or (r.status = 'sending' and r.locked_until < now()))
    and exists (select 1 from public.payout_accounts p where p.publisher_id = r.publisher_id);
  if due > 0 then
    perform private.kick_edge_function_or_raise('send-payouts', 120000);
  end if;
  return due;
end
$function$;

-- === The admin's decision ==================================================================================

create function public.admin_held_money(p_user_id uuid)
 returns table(subscribers integer, on_hold numeric, pending_earnings numeric, past_screening integer)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_admin();
  return query
  with subs as (
    -- Subscribers still in screening on either side of this account: its holds as an advertiser, its pending
    -- earnings as a publisher.
    select distinct t.subscription_id as id from public.wallet_transactions t
    where t.user_id = p_user_id and t.status = 'pending' and t.type in ('hold', 'earning') and t.subscription_id is not null
  )
  select count(distinct t.subscription_id)::integer,
    coalesce(-sum(t.amount) filter (where t.type = 'hold'), 0)::numeric(12, 2),
    coalesce(sum(t.amount) filter (where t.type = 'earning'), 0)::numeric(12, 2),
    count(distinct t.subscription_id) filter (where t.type = 'hold' and t.available_at <= now())::integer
  from public.wallet_transactions t
  where t.subscription_id in (select id from subs) and t.status = 'pending' and t.type in ('hold', 'earning');
end
$function$;
comment on function public.admin_held_money(p_user_id uuid) is 'Admins: the money of a user''s subscribers still in screening (as advertiser or publisher): how many subscribers, the advertisers'' holds, the publishers'' pending earnings, and how many are past screening (held only because of a suspension).';
revoke execute on function public.admin_held_money(p_user_id uuid) from public;
grant execute on function public.admin_held_money(p_user_id uuid) to authenticated, service_role;

create function public.admin_refund_held_money(p_user_id uuid, p_reason text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  note text := nullif(trim(p_reason), '');
  sub record;
  result jsonb;
  total numeric(12, 2) := 0;
  n integer := 0;
begin
  perform private.require_admin();
  if note is null then
    raise exception 'Give a reason' using errcode = '22023';
  end if;
  if char_length(note) > 1000 then
    raise exception 'Keep the reason under 1,000 characters' using errcode = '22023';
  end if;
  if not public.account_is_suspended(p_user_id) then
    raise exception 'Only a suspended account''s held money is refunded here: refund one subscriber through a dispute'
      using errcode = '22023';
  end if;
  -- Lock order of the ledger: every advertiser's wallet first (in one order), then each subscriber's rows.
  for sub in
    select distinct c.advertiser_id as id from public.wallet_transactions t
    join public.newsletter_subscriptions s on s.id = t.subscription_id
    join public.campaigns c on c.id = s.campaign_id
    where t.user_id = p_user_id and t.status = 'pending' and t.type in ('hold', 'earning')
    order by c.advertiser_id
  loop
    perform private.lock_wallet(sub.id);
  end loop;
  for sub in
    select distinct t.subscription_id as id from public.wallet_transactions t
    where t.user_id = p_user_id and t.status = 'pending' and t.type in ('hold', 'earning') and t.subscription_id is not null
    order by t.subscription_id
  loop
    result := public.refund_subscription(sub.id, 'Account suspended: ' || note);
    total := total + coalesce((result ->> 'refunded')::numeric, 0);
    n := n + 1;
  end loop;
  return jsonb_build_object('refunded_subscribers', n, 'refunded', total);
end
$function$;
comment on function public.admin_refund_held_money(p_user_id uuid, p_reason text) is 'Admins (at aal2) decide against a suspended account: every subscriber of it still in screening is refunded through refund_subscription (the advertiser''s hold released, the publisher''s pending earning cancelled, each with the reason), as an upheld dispute would. Reinstating the account is the other decision: its held money then settles as usual.';
revoke execute on function public.admin_refund_held_money(p_user_id uuid, p_reason text) from public;
grant execute on function public.admin_refund_held_money(p_user_id uuid, p_reason text) to authenticated, service_role;
