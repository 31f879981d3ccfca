-- Pay for readers who read: engagement-verified pay (issue 39; PRODUCT "Pay for readers who read", ARCHITECTURE
-- "Wave 4 interfaces", row "engagement-verified pay").
--
-- Each newsletter chooses its rule: campaigns.pay_rule 'confirmed' (today: a confirmed reader is charged after the
-- 7-day hold) or 'engaged' (charged only if the reader opens or clicks one of its emails within
-- campaigns.engagement_window_days, 7 to 30, default 14). 'engaged' needs a connected email tool (the guard below),
-- and the rule a subscriber is paid under is recorded on the subscription when it is made (attributed), so a change
-- applies to new subscribers only.
--
-- Under 'engaged' the hold and the publisher's earning last until the window closes. Then settle_matured_holds, the
-- scheduled settlement (every 5 seconds), asks private.engagement_verdict:
--   engaged     a counted open or click was read back: charged as any reader;
--   not_engaged the tool answered after the window closed (or, past the bound, at least once) without one: the hold
--               is released and the earning cancelled, the subscriber carries the reason not_engaged;
--   wait        the tool has not answered since the window closed: looked at again every 5 minutes, for at most
--               private.engagement_wait_bound() (72 hours) after the window;
--   unverified  past the bound and the tool never answered once (no delivery, key or list broken, disconnected):
--               there is no evidence either way, so the confirmed rule applies and the reader is charged.
-- The read-back (deliver-esp, every 10 minutes) makes one final read of every undecided reader once the window has
-- closed, so a reader is normally decided within about 15 minutes of the window closing.
--
-- What counts: where the tool tells machine activity apart (it reports machine opens or clicks), any open or click
-- by a person; where it cannot, only clicks (privacy proxies open every email). Kit now reports opens and clicks per
-- subscriber (GET /v4/subscribers/{id}/stats), so all four tools are read.
--
-- subscriber_evidence(p_subscription_id) gives both sides (and admins) the evidence row; engaged_rates gives each
-- source's engaged rate once it rests on 20 readers.

-- === Vocabulary ============================================================================================

alter type public.not_counted_reason add value if not exists 'not_engaged' after 'refunded';

alter table public.newsletter_subscriptions drop constraint newsletter_subscriptions_not_counted_reason_check;
alter table public.newsletter_subscriptions add constraint newsletter_subscriptions_not_counted_reason_check
  check ((not_counted_reason = any (array['source_inactive'::text, 'account_suspended'::text, 'self_referral'::text, 'disposable_email'::text, 'duplicate_email'::text, 'too_fast_confirmation'::text, 'no_click'::text, 'velocity'::text, 'address_velocity'::text, 'domain_velocity'::text, 'budget_exhausted'::text, 'refunded'::text, 'not_engaged'::text])));

insert into public.not_counted_reasons (code, label, applies_to, position) values
  ('not_engaged', 'No open or click within the engagement window', '{subscription}',
   (select max(position) + 1 from public.not_counted_reasons));

-- === Columns ===============================================================================================

alter table public.campaigns
  add column pay_rule text default 'confirmed' not null,
  add column engagement_window_days integer default 14 not null,
  add constraint campaigns_pay_rule_check check ((pay_rule = any (array['confirmed'::text, 'engaged'::text]))),
  add constraint campaigns_engagement_window_days_check check (((engagement_window_days >= 7) and (engagement_window_days <= 30)));
comment on column public.campaigns.pay_rule is 'What is paid for: confirmed (a reader who confirms, after the 7-day hold) or engaged (only a reader who opens or clicks within engagement_window_days; needs a connected email tool). Applies to subscribers made after a change.';
comment on column public.campaigns.engagement_window_days is 'Under pay_rule engaged: the days from confirmation within which the reader must open or click (7 to 30); the hold lasts as long.';
grant update (pay_rule, engagement_window_days) on public.campaigns to authenticated;

alter table public.newsletter_subscriptions
  add column pay_rule text,
  add column engagement_window_days integer,
  add column engagement_decided_at timestamp with time zone,
  add column engagement_decision text,
  add constraint newsletter_subscriptions_pay_rule_check check ((pay_rule = any (array['confirmed'::text, 'engaged'::text]))),
  add constraint newsletter_subscriptions_engagement_window_days_check check (((engagement_window_days >= 7) and (engagement_window_days <= 30))),
  add constraint newsletter_subscriptions_engagement_decision_check check ((engagement_decision = any (array['engaged'::text, 'not_engaged'::text, 'unverified'::text]))),
  add constraint newsletter_subscriptions_engaged_rule_window check (((pay_rule is distinct from 'engaged'::text) or (engagement_window_days is not null)));
comment on column public.newsletter_subscriptions.pay_rule is 'The campaign''s pay rule when this subscription was made (attributed): the one it is paid under.';
comment on column public.newsletter_subscriptions.engagement_window_days is 'Under pay_rule engaged: the campaign''s engagement window when this subscription was made.';
comment on column public.newsletter_subscriptions.engagement_decided_at is 'Under pay_rule engaged: when settlement decided (charged or released).';
comment on column public.newsletter_subscriptions.engagement_decision is 'Under pay_rule engaged: engaged (charged), not_engaged (released) or unverified (the tool never answered within the bound: charged as a confirmed reader).';

alter table public.esp_deliveries
  add column machine_opens integer,
  add column machine_clicks integer,
  add column counted_engagement boolean,
  add constraint esp_deliveries_machine_opens_check check ((machine_opens >= 0)),
  add constraint esp_deliveries_machine_clicks_check check ((machine_clicks >= 0));
comment on column public.esp_deliveries.machine_opens is 'Opens the tool attributes to machines (privacy proxies, prefetches); null where it does not tell them apart.';
comment on column public.esp_deliveries.machine_clicks is 'Clicks the tool attributes to machines (link scanners); null where it does not tell them apart.';
comment on column public.esp_deliveries.counted_engagement is 'A counted open or click was read back (a person''s open or click where the tool tells machines apart, else a click); stays true once seen. What engagement-verified pay charges for.';
-- Read before this migration: a counted click is known where the tool gave counts; rate-only tools (beehiiv,
-- Mailchimp) say at their next read.
update public.esp_deliveries set counted_engagement = coalesce(clicks > 0, false) where engagement_checked_at is not null;
create index esp_deliveries_subscription_engagement_idx on public.esp_deliveries using btree (subscription_id) include (counted_engagement, engagement_checked_at);

-- === The rule on each newsletter and each subscriber ========================================================

create function private.guard_pay_rule()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if new.pay_rule is null or new.pay_rule not in ('confirmed', 'engaged') then
    raise exception 'Choose to pay per confirmed reader or per engaged reader' using errcode = '22023';
  end if;
  if new.engagement_window_days is null or new.engagement_window_days not between 7 and 30 then
    raise exception 'Choose an engagement window of 7 to 30 days' using errcode = '22023';
  end if;
  if new.pay_rule = 'engaged' and (tg_op = 'INSERT' or old.pay_rule is distinct from 'engaged')
     and not exists (select 1 from public.esp_connections e where e.campaign_id = new.id) then
    raise exception 'Connect your email tool first: paying per engaged reader needs the opens and clicks Growletter reads from it'
      using errcode = '22023';
  end if;
  return new;
end
$function$;
comment on function private.guard_pay_rule() is 'Internal trigger: a campaign pays per engaged reader only with a connected email tool, with a window of 7 to 30 days; says so in words.';
revoke execute on function private.guard_pay_rule() from public;
create trigger campaigns_guard_pay_rule before insert or update of pay_rule, engagement_window_days on public.campaigns
  for each row execute function private.guard_pay_rule();

create function private.record_pay_rule()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  select c.pay_rule, case when c.pay_rule = 'engaged' then c.engagement_window_days end
    into new.pay_rule, new.engagement_window_days
  from public.campaigns c where c.id = new.campaign_id;
  new.engagement_decided_at := null;
  new.engagement_decision := null;
  return new;
end
$function$;
comment on function private.record_pay_rule() is 'Internal trigger: a subscription made (or re-made: attributed again) takes its campaign''s pay rule and window as they are then, so a change of rule applies to new subscribers only.';
revoke execute on function private.record_pay_rule() from public;
create trigger newsletter_subscriptions_record_pay_rule before insert or update of attributed_at on public.newsletter_subscriptions
  for each row execute function private.record_pay_rule();

-- Subscriptions made before this migration were made under today's rule.
update public.newsletter_subscriptions set pay_rule = 'confirmed' where pay_rule is null;

-- === Read-back =============================================================================================

create or replace function private.esp_reports_engagement(p_provider text)
 returns boolean
 language sql
 immutable
 set search_path to ''
as $function$
  select p_provider in ('beehiiv', 'kit', 'mailchimp', 'mailerlite')
$function$;
comment on function private.esp_reports_engagement(p_provider text) is 'Internal: whether the provider''s API reports a subscriber''s opens and clicks: all four (Kit since its per-subscriber stats, GET /v4/subscribers/{id}/stats).';

create function private.engagement_wait_bound()
 returns interval
 language sql
 immutable
 set search_path to ''
as $function$
  select interval '72 hours'
$function$;
comment on function private.engagement_wait_bound() is 'Internal: how long after an engagement window closes settlement waits for the email tool''s final answer (outages, rate limits) before deciding on what it has.';
revoke execute on function private.engagement_wait_bound() from public;

create function private.esp_engagement_due(d public.esp_deliveries, p_provider text, p_confirmed_at timestamp with time zone, p_window_days integer, p_final boolean)
 returns boolean
 language sql
 stable
 set search_path to ''
as $function$
  -- Delivered, readable, no read in flight and none waiting after a failure; then either within the window (the
  -- subscriber's engagement window, else the 7-day screening) every 6 hours from the delivery or the last read, or
  -- (p_final: a reader whose pay waits for it) one read after the window closed, until the wait's bound.
  select d.status = 'delivered' and private.esp_reports_engagement(p_provider)
    and (d.engagement_locked_until is null or d.engagement_locked_until < now())
    and (d.engagement_retry_at is null or d.engagement_retry_at <= now())
    and (
      (p_confirmed_at > now() - make_interval(days => coalesce(p_window_days, 7))
        and coalesce(d.engagement_checked_at, d.delivered_at) <= now() - interval '6 hours')
      or (coalesce(p_final, false) and not coalesce(d.counted_engagement, false)
        and p_confirmed_at + make_interval(days => coalesce(p_window_days, 7)) <= now()
        and p_confirmed_at + make_interval(days => coalesce(p_window_days, 7)) > now() - private.engagement_wait_bound()
        and (d.engagement_checked_at is null
          or d.engagement_checked_at < p_confirmed_at + make_interval(days => coalesce(p_window_days, 7)))));
$function$;
comment on function private.esp_engagement_due(d public.esp_deliveries, p_provider text, p_confirmed_at timestamp with time zone, p_window_days integer, p_final boolean) is 'Internal: whether a delivered subscriber''s engagement is due to be read: within its window (engagement window, else 7 days) every 6 hours from the delivery; and, for a reader paid per engagement and not yet decided, once after the window closed (until the wait''s bound).';
revoke execute on function private.esp_engagement_due(d public.esp_deliveries, p_provider text, p_confirmed_at timestamp with time zone, p_window_days integer, p_final boolean) from public;

drop function public.claim_esp_engagement(p_limit integer);
create function public.claim_esp_engagement(p_limit integer default 20)
 returns table(id uuid, provider text, target_id text, api_key text, email text, remote_id text, delivered_at timestamp with time zone)
 language plpgsql
 security definer
 set search_path to ''
as $function$
#variable_conflict use_column
declare
  wanted integer := least(greatest(coalesce(p_limit, 20), 1), 100);
  k record;
  b record;
  used integer;
  allowance integer;
  taken integer;
begin
  -- The same lock, log and pauses as claim_esp_deliveries: a read-back spends the key's budget like a delivery.
  perform pg_advisory_xact_lock(hashtext('public.claim_esp_deliveries'));
  delete from private.esp_key_pauses p where p.paused_until <= now();
  for k in
    select c.key_fingerprint as fp, c.provider as prov, min(coalesce(d.engagement_checked_at, d.delivered_at)) as oldest
    from public.esp_deliveries d
    join public.esp_connections c on c.id = d.connection_id
    join public.newsletter_subscriptions s on s.id = d.subscription_id
    where d.status = 'delivered' and private.esp_engagement_due(d, c.provider, s.confirmed_at, s.engagement_window_days, s.pay_rule = 'engaged' and s.engagement_decided_at is null)
      and not exists (select 1 from private.esp_key_pauses p where p.key_fingerprint = c.key_fingerprint)
    group by c.key_fingerprint, c.provider
    order by oldest
  loop
    exit when wanted <= 0;
    select * into b from private.esp_budget(k.prov);
    if b.concurrent is not null then
      select count(*) into used from public.esp_deliveries d join public.esp_connections c on c.id = d.connection_id
      where c.key_fingerprint = k.fp
        and ((d.status = 'queued' and d.locked_until > now())
          or (d.status = 'delivered' and d.engagement_locked_until > now()));
      allowance := b.concurrent - used;
    else
      select coalesce(sum(l.requests), 0) into used from private.esp_request_log l
      where l.key_fingerprint = k.fp and l.sent_at > now() - make_interval(secs => b.window_seconds);
      -- One request per read-back.
      allowance := b.requests - used;
    end if;
    allowance := least(allowance, wanted);
    continue when allowance <= 0;
    return query
    with due as (
      select d.id from public.esp_deliveries d
      join public.esp_connections c on c.id = d.connection_id
      join public.newsletter_subscriptions s on s.id = d.subscription_id
      where c.key_fingerprint = k.fp and d.status = 'delivered' and private.esp_engagement_due(d, c.provider, s.confirmed_at, s.engagement_window_days, s.pay_rule = 'engaged' and s.engagement_decided_at is null)
      order by coalesce(d.engagement_checked_at, d.delivered_at)
      limit allowance
      for update of d skip locked
    ), claimed as (
      update public.esp_deliveries d set engagement_locked_until = now() + interval '2 minutes'
      from due where d.id = due.id
      returning d.id, d.connection_id, d.subscription_id, d.remote_id, d.delivered_at
    )
    select cl.id, c.provider, c.target_id, v.decrypted_secret, s.email::text, cl.remote_id, cl.delivered_at
    from claimed cl
    join public.esp_connections c on c.id = cl.connection_id
    join vault.decrypted_secrets v on v.id = c.secret_id
    join public.newsletter_subscriptions s on s.id = cl.subscription_id;
    get diagnostics taken = row_count;
    if taken > 0 then
      insert into private.esp_request_log (key_fingerprint, requests) values (k.fp, taken);
    end if;
    wanted := wanted - taken;
  end loop;
end
$function$;
comment on function public.claim_esp_engagement(p_limit integer) is 'deliver-esp, service role only: takes up to p_limit delivered subscribers whose engagement is due (private.esp_engagement_due) for 2 minutes, within each API key''s budget and never for a paused key, with the decrypted key, the id the tool gave the subscriber (Kit reads stats by it) and when it was delivered. Run after the deliveries, so read-backs spend only what deliveries left.';
revoke execute on function public.claim_esp_engagement(p_limit integer) from public;
grant execute on function public.claim_esp_engagement(p_limit integer) to service_role;

comment on function private.dispatch_esp_engagement() is 'Scheduled every 10 minutes (read-esp-engagement): calls deliver-esp when engagement read-backs are due (within a window, or the final read after an engagement window closed); returns how many.';

drop function public.finish_esp_engagement(p_id uuid, p_engaged boolean, p_opens integer, p_clicks integer, p_response_status integer, p_error text, p_retry_after_ms integer);

create or replace function private.dispatch_esp_engagement()
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  due integer;
begin
  select count(*) into due from public.esp_deliveries d
  join public.esp_connections c on c.id = d.connection_id
  join public.newsletter_subscriptions s on s.id = d.subscription_id
  where d.status = 'delivered' and private.esp_engagement_due(d, c.provider, s.confirmed_at, s.engagement_window_days, s.pay_rule = 'engaged' and s.engagement_decided_at is null);
  if due > 0 then
    perform private.kick_edge_function_or_raise('deliver-esp', 120000);
  end if;
  return due;
end
$function$;
drop function private.esp_engagement_due(d public.esp_deliveries, p_provider text, p_confirmed_at timestamp with time zone);

create function public.finish_esp_engagement(p_id uuid, p_engaged boolean, p_opens integer default null::integer, p_clicks integer default null::integer, p_response_status integer default null::integer, p_error text default null::text, p_retry_after_ms integer default null::integer, p_machine_opens integer default null::integer, p_machine_clicks integer default null::integer, p_clicked boolean default null::boolean)
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  d public.esp_deliveries;
  fp text;
  delay interval;
begin
  select * into d from public.esp_deliveries e where e.id = p_id for update;
  if not found or d.status <> 'delivered' or d.engagement_locked_until is null or d.engagement_locked_until < now() then
    return 'missing';
  end if;
  if p_error is null then
    -- Providers report totals so far: once engaged, a later answer saying less does not take it back.
    -- What counts (PRODUCT "Pay for readers who read"): where the tool tells machines apart (it reports machine
    -- opens or clicks), any open or click by a person; where it cannot, only a click.
    update public.esp_deliveries set
      engaged = coalesce(d.engaged, false) or coalesce(p_engaged, false),
      opens = greatest(d.opens, case when p_opens >= 0 then p_opens end),
      clicks = greatest(d.clicks, case when p_clicks >= 0 then p_clicks end),
      machine_opens = greatest(d.machine_opens, case when p_machine_opens >= 0 then p_machine_opens end),
      machine_clicks = greatest(d.machine_clicks, case when p_machine_clicks >= 0 then p_machine_clicks end),
      counted_engagement = coalesce(d.counted_engagement, false) or coalesce(
        case when p_machine_opens is not null or p_machine_clicks is not null
          then coalesce(p_opens, 0) - coalesce(p_machine_opens, 0) > 0 or coalesce(p_clicks, 0) - coalesce(p_machine_clicks, 0) > 0
          else coalesce(p_clicks > 0, p_clicked) end, false),
      engagement_checked_at = now(), engagement_locked_until = null, engagement_retry_at = null
    where id = p_id;
    return 'read';
  end if;
  -- A failed read waits Retry-After, else the usual 6 hours; a 429 pauses the whole key.
  delay := least(coalesce(case when p_retry_after_ms is not null then make_interval(secs => greatest(p_retry_after_ms, 0) / 1000.0) end,
    interval '6 hours'), interval '1 day');
  if p_response_status = 429 then
    select c.key_fingerprint into fp from public.esp_connections c where c.id = d.connection_id;
    insert into private.esp_key_pauses as p (key_fingerprint, paused_until) values (fp, now() + delay)
    on conflict (key_fingerprint) do update set paused_until = greatest(p.paused_until, excluded.paused_until);
  end if;
  update public.esp_deliveries set engagement_locked_until = null, engagement_retry_at = now() + delay where id = p_id;
  return 'waiting';
end
$function$;
comment on function public.finish_esp_engagement(p_id uuid, p_engaged boolean, p_opens integer, p_clicks integer, p_response_status integer, p_error text, p_retry_after_ms integer, p_machine_opens integer, p_machine_clicks integer, p_clicked boolean) is 'deliver-esp, service role only: records one engagement read-back (engaged and counted_engagement stay true once seen; counts never go down; machine counts only where the tool tells them apart, p_clicked where it reports a click rate but no count), or after a failure waits Retry-After or 6 hours (a 429 pauses the whole key).';
revoke execute on function public.finish_esp_engagement(p_id uuid, p_engaged boolean, p_opens integer, p_clicks integer, p_response_status integer, p_error text, p_retry_after_ms integer, p_machine_opens integer, p_machine_clicks integer, p_clicked boolean) from public;
grant execute on function public.finish_esp_engagement(p_id uuid, p_engaged boolean, p_opens integer, p_clicks integer, p_response_status integer, p_error text, p_retry_after_ms integer, p_machine_opens integer, p_machine_clicks integer, p_clicked boolean) to service_role;

-- === Settlement ============================================================================================

create function private.engagement_verdict(p_subscription_id uuid, p_now timestamp with time zone default now())
 returns text
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  s public.newsletter_subscriptions;
  window_end timestamp with time zone;
  counted boolean;
  last_read timestamp with time zone;
begin
  select * into s from public.newsletter_subscriptions n where n.id = p_subscription_id;
  if not found or s.pay_rule is distinct from 'engaged' or s.engagement_decided_at is not null or s.confirmed_at is null then
    return null;
  end if;
  window_end := s.confirmed_at + make_interval(days => s.engagement_window_days);
  select bool_or(coalesce(d.counted_engagement, false)), max(d.engagement_checked_at) into counted, last_read
  from public.esp_deliveries d where d.subscription_id = p_subscription_id;
  if coalesce(counted, false) then
    return 'engaged';
  end if;
  if p_now < window_end then
    return 'wait';
  end if;
  if last_read >= window_end then
    return 'not_engaged';
  end if;
  if p_now < window_end + private.engagement_wait_bound() then
    return 'wait';
  end if;
  return case when last_read is not null then 'not_engaged' else 'unverified' end;
end
$function$;
comment on function private.engagement_verdict(p_subscription_id uuid, p_now timestamp with time zone) is 'Internal: for a subscriber paid per engagement and not yet decided, what settlement does now: engaged (a counted open or click: charge), not_engaged (the tool answered after the window closed, or past the bound at least once, without one: release), wait (window open, or no answer since it closed and the bound not passed) or unverified (past the bound, the tool never answered: charged as a confirmed reader). Null for any other subscriber.';
revoke execute on function private.engagement_verdict(p_subscription_id uuid, p_now timestamp with time zone) from public;

create function private.release_not_engaged(t public.wallet_transactions)
 returns boolean
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  s public.newsletter_subscriptions;
  e public.wallet_transactions;
  released numeric(12, 2) := -t.amount;
begin
  select * into s from public.newsletter_subscriptions where id = t.subscription_id for update;
  perform private.lock_wallet(t.user_id);
  if not private.finish_ledger(t.id, 'canceled',
       t.description || ' — released: no open or click within ' || s.engagement_window_days || ' days') then
    return false;
  end if;
  perform private.post_ledger(t.user_id, 0, 'release', 'completed',
    'Hold released: the reader did not open or click within ' || s.engagement_window_days || ' days',
    'subscription:' || s.id, s.campaign_id, s.id);
  for e in select * from public.wallet_transactions w
           where w.subscription_id = s.id and w.type = 'earning' and w.status = 'pending' loop
    perform private.finish_ledger(e.id, 'canceled',
      e.description || ' — not paid: the reader did not open or click within ' || s.engagement_window_days || ' days');
  end loop;
  update public.campaigns set budget_spent = greatest(budget_spent - released, 0) where id = s.campaign_id;
  update public.campaign_source_stats set
    total_conversions = greatest(total_conversions - 1, 0),
    total_spend = total_spend - released,
    total_earnings = total_earnings - private.publisher_earning(released)
  where campaign_id = s.campaign_id and audience_source_id = s.audience_source_id;
  update public.newsletter_subscriptions set counted = false, not_counted_reason = 'not_engaged',
    engagement_decided_at = now(), engagement_decision = 'not_engaged'
  where id = s.id;
  perform private.refresh_campaign_funding(t.user_id);
  return true;
end
$function$;
comment on function private.release_not_engaged(t public.wallet_transactions) is 'Internal (settle_matured_holds): a reader paid per engagement who did not engage: the advertiser''s hold is released (nothing charged), the publisher''s pending earning cancelled, the spend and per-source figures taken back, and the subscriber marked not counted with the reason not_engaged. Once: false when the hold was no longer pending.';
revoke execute on function private.release_not_engaged(t public.wallet_transactions) from public;

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
    -- The scheduled job (a time budget, no row cap) locks at most 1,000 candidates per run, not every due row: with
    -- 20,000 due rows, locking them all took ~225 ms of the run's 300 ms (bench/engaged-pay.ts); a run settles a few
    -- hundred at most, and the order is the same.
    limit coalesce(p_max_rows, case when p_max_duration is not null then 1000 end)
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
comment on function public.settle_matured_holds(p_now timestamp with time zone, p_max_rows integer, p_max_duration interval) is 'Scheduled, service role only: after screening each hold is released as a completed debit and each earning (once its hold settled) becomes available; a subscriber paid per engagement is charged only if it engaged, else released with the reason not_engaged (private.engagement_verdict; while the email tool''s final answer is awaited its rows are looked at again every 5 minutes). A subscriber with a pending hold or earning of a suspended account waits, on both sides, until an admin reinstates or refunds. Row by row: a row that cannot settle stays pending and is recorded in settlement_failures; the others settle. At most p_max_rows rows and about p_max_duration of work per call (the scheduled job settles in small batches); without them, everything due. Returns how many rows settled.';

-- === Evidence ==============================================================================================

create function public.subscriber_evidence(p_subscription_id uuid)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  me uuid := (select auth.uid());
  s public.newsletter_subscriptions;
  advertiser uuid;
  publisher uuid;
  d record;
  debit timestamp with time zone;
  released timestamp with time zone;
  on_hold boolean;
  decision text;
  decided timestamp with time zone;
begin
  perform private.require_live_session();
  select * into s from public.newsletter_subscriptions n where n.id = p_subscription_id;
  select c.advertiser_id into advertiser from public.campaigns c where c.id = s.campaign_id;
  select a.publisher_id into publisher from public.audience_sources a where a.id = s.audience_source_id;
  if auth.role() <> 'service_role' and (s.id is null or me is distinct from advertiser and me is distinct from publisher) then
    if public.is_admin() then
      perform private.require_admin();
    else
      raise exception 'You can only see the evidence of subscribers of your own newsletters or sources' using errcode = '42501';
    end if;
  end if;
  if s.id is null then
    raise exception 'Subscriber not found' using errcode = 'P0002';
  end if;
  select max(x.delivered_at) as delivered_at, max(x.opens) as opens, max(x.clicks) as clicks,
    max(x.machine_opens) as machine_opens, max(x.machine_clicks) as machine_clicks,
    bool_or(x.counted_engagement) as counted, max(x.engagement_checked_at) as checked
  into d from public.esp_deliveries x where x.subscription_id = s.id;
  select max(t.created_at) filter (where t.type = 'debit' and t.status = 'completed'),
    max(t.created_at) filter (where t.type = 'release' and t.status = 'completed'),
    coalesce(bool_or(t.type = 'hold' and t.status = 'pending'), false)
  into debit, released, on_hold
  from public.wallet_transactions t where t.subscription_id = s.id and t.user_id = advertiser;
  decision := case
    when debit is not null then 'charged'
    when on_hold then 'on_hold'
    when released is not null then 'released'
    when s.confirmed_at is not null and s.not_counted_reason is not null then 'not_charged'
  end;
  decided := case decision when 'charged' then debit when 'released' then coalesce(s.engagement_decided_at, released) end;
  return jsonb_build_object(
    'status', s.status,
    'reasons', to_jsonb(array_remove(array[s.not_counted_reason], null)),
    'confirmed_at', s.confirmed_at,
    'delivered_at', d.delivered_at,
    'opens', d.opens,
    'clicks', d.clicks,
    'machine_opens', d.machine_opens,
    'machine_clicks', d.machine_clicks,
    'engaged', case when d.checked is not null or d.counted then coalesce(d.counted, false) end,
    'decided_at', decided,
    'decision', decision);
end
$function$;
comment on function public.subscriber_evidence(p_subscription_id uuid) is 'One subscriber''s evidence row, the same for the campaign''s advertiser, the source''s publisher and admins (never the address): status, not-counted reasons, confirmed and delivered at, opens and clicks read back from the email tool (machine ones where the tool tells them apart), whether a counted open or click was seen (null before any read), and the decision (on_hold, charged, released, not_charged) with its date.';
revoke execute on function public.subscriber_evidence(p_subscription_id uuid) from public;
grant execute on function public.subscriber_evidence(p_subscription_id uuid) to authenticated, service_role;

create function public.engaged_rates(p_source_ids uuid[])
 returns table(source_id uuid, readers integer, engaged integer, engaged_rate numeric)
 language sql
 stable security definer
 set search_path to ''
as $function$
  -- Readers of public sources whose window (engagement window, else the 7-day screening) has closed and whose email
  -- tool answered at least once; the rate only from 20 such readers on (below that it says little).
  select a.id, count(r.id)::integer, count(r.id) filter (where r.counted)::integer,
    case when count(r.id) >= 20 then round(count(r.id) filter (where r.counted) * 100.0 / count(r.id), 1) end::numeric(5, 1)
  from public.audience_sources a
  left join lateral (
    select s.id, bool_or(coalesce(d.counted_engagement, false)) as counted
    from public.newsletter_subscriptions s
    join public.esp_deliveries d on d.subscription_id = s.id and d.engagement_checked_at is not null
    where s.audience_source_id = a.id and s.confirmed_at is not null
      and s.confirmed_at + make_interval(days => coalesce(s.engagement_window_days, 7)) <= now()
    group by s.id
  ) r on true
  where a.id = any (p_source_ids) and cardinality(p_source_ids) <= 200
    and (public.is_source_public(a.status) or a.publisher_id = (select auth.uid()) or public.is_admin())
  group by a.id
$function$;
comment on function public.engaged_rates(p_source_ids uuid[]) is 'Each named source''s engaged rate (at most 200 at a time; public sources, or the caller''s own): of its readers whose window has closed and whose email tool answered, the share with a counted open or click; null below 20 such readers ("enough readers"). The same figure on Offers, analytics and the public directory.';
revoke execute on function public.engaged_rates(p_source_ids uuid[]) from public;
grant execute on function public.engaged_rates(p_source_ids uuid[]) to anon, authenticated, service_role;

create or replace function public.disconnect_esp(p_campaign_id uuid)
 returns boolean
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  me uuid := (select auth.uid());
  old_secret uuid;
begin
  perform private.require_live_session();
  if me is null or not exists (select 1 from public.campaigns c where c.id = p_campaign_id and c.advertiser_id = me) then
    raise exception 'You can only disconnect your own newsletters' using errcode = '42501';
  end if;
  if exists (select 1 from public.campaigns c where c.id = p_campaign_id and c.pay_rule = 'engaged') then
    raise exception 'This newsletter pays per engaged reader, which needs your email tool: switch it to pay per confirmed reader first'
      using errcode = '22023';
  end if;
  delete from public.esp_connections e where e.campaign_id = p_campaign_id returning e.secret_id into old_secret;
  if old_secret is null then
    return false;
  end if;
  delete from vault.secrets v where v.id = old_secret;
  return true;
end
$function$;
create or replace function public.confirm_subscription(p_token_hash text, p_email text, p_ip text default null::text, p_user_agent text default null::text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  s public.newsletter_subscriptions;
  c public.campaigns;
  src public.audience_sources;
  reason text;
  screening interval := interval '7 days';
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
  perform private.lock_wallet((select advertiser_id from public.campaigns where id = s.campaign_id));
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
    perform private.end_pending_subscription(s.id, 'expired');
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
    -- Paid per engaged reader: the hold lasts until the engagement window closes (7 to 30 days).
    if s.pay_rule = 'engaged' then
      screening := make_interval(days => s.engagement_window_days);
    end if;
    select * into src from public.audience_sources where id = s.audience_source_id;
    earning := private.publisher_earning(s.price);
    perform private.post_ledger(c.advertiser_id, -s.price, 'hold', 'pending',
      'Subscriber to ' || c.name || ' (on hold during screening)', 'subscription:' || s.id, c.id, s.id, now() + screening);
    perform private.post_ledger(src.publisher_id, earning, 'earning', 'pending',
      'Subscriber to ' || c.name || ' via ' || src.name, 'subscription:' || s.id, c.id, s.id, now() + screening);
    update public.campaigns set budget_spent = budget_spent + s.price where id = c.id;
    perform private.bump_campaign_source_stats(c.id, src.id, 0, 0, 1, s.price, earning);
  end if;

  return jsonb_build_object('result', 'confirmed', 'newsletter_name', c.name, 'campaign_id', c.id,
    'counted', s.counted, 'not_counted_reason', s.not_counted_reason);
end
$function$;
comment on function public.disconnect_esp(p_campaign_id uuid) is 'The owner disconnects a campaign''s email tool: the connection, its queue and its key in Vault are deleted. Refused while the campaign pays per engaged reader (switch it to confirmed first). Answers false when nothing was connected.';

comment on function public.confirm_subscription(p_token_hash text, p_email text, p_ip text, p_user_agent text) is 'verify-subscription edge function, service role only: confirms once within 48 h; applies the paid-subscriber rule; a paid subscriber turns its reservation into a hold at the locked price (counted=false with a null reason means an unattributed, free subscriber), for 7 days or, paid per engagement, for its engagement window.';

-- Kit is read back too now: the words that said otherwise.
comment on column public.esp_deliveries.engaged is 'Opened or clicked at least once, as the provider last told (any of the four; machines included where the tool cannot tell them apart); null until read. What pay counts is counted_engagement.';
comment on column public.esp_deliveries.opens is 'Opens the provider counted (Kit, MailerLite); null where it reports rates only (beehiiv, Mailchimp).';
comment on column public.esp_deliveries.clicks is 'Clicks the provider counted (Kit, MailerLite); null where it reports rates only (beehiiv, Mailchimp).';
-- "Engaged" is one thing on every screen: a counted open or click (opens alone do not count where the tool cannot
-- tell machines apart).
create or replace function public.esp_engagement_figures(p_campaign_id uuid default null::uuid, p_from date default null::date, p_to date default null::date)
 returns table(source_id uuid, source_name text, delivered bigint, checked bigint, engaged bigint, engagement_rate numeric)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  v record;
begin
  perform private.check_figures_range(p_from, p_to);
  perform private.check_figures_scope(p_campaign_id, null);
  select * into v from private.figures_viewer();
  return query
  select a.id, a.name,
    count(*)::bigint,
    count(*) filter (where d.engagement_checked_at is not null)::bigint,
    count(*) filter (where d.counted_engagement)::bigint,
    (case when count(*) filter (where d.engagement_checked_at is not null) > 0
      then round(count(*) filter (where d.counted_engagement) * 100.0 / count(*) filter (where d.engagement_checked_at is not null), 2)
    end)::numeric(5, 2)
  from public.esp_deliveries d
  join public.esp_connections c on c.id = d.connection_id
  join public.newsletter_subscriptions s on s.id = d.subscription_id
  join public.audience_sources a on a.id = s.audience_source_id
  where d.status = 'delivered' and private.esp_reports_engagement(c.provider)
    and (p_campaign_id is null or d.campaign_id = p_campaign_id)
    and (p_from is null or private.utc_day(s.confirmed_at) between p_from and p_to)
    and (v.sees_all or d.campaign_id = any (v.campaign_ids) or a.id = any (v.source_ids))
  group by a.id, a.name
  order by 5 desc, 3 desc, a.name;
end
$function$;
comment on function public.esp_engagement_figures(p_campaign_id uuid, p_from date, p_to date) is 'Engagement per source of subscribers delivered into an email tool (all four report it): delivered, read back, engaged (a counted open or click, as the evidence row and engagement-verified pay count it), and the engagement rate (engaged per 100 read back; null before any read). For the caller''s campaigns (one with p_campaign_id), the caller''s sources, or (admins) any; by confirmation day when a range is given.';
