-- One rule, one place (issue 23): the platform fee is stated once in SQL, private.publisher_earning(price). The three
-- functions that still multiplied by the share themselves now ask it; each is its current definition (from
-- supabase/schemas) with only the literal changed, so nothing else moves. supabase/tests/fee-one-place.test.ts
-- fails if any function body but publisher_earning states the share again.
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

create or replace function public.refund_subscription(p_subscription_id uuid, p_reason text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  s public.newsletter_subscriptions;
  t public.wallet_transactions;
  refunded numeric(12, 2) := 0;
begin
  select * into s from public.newsletter_subscriptions where id = p_subscription_id for update;
  if not found then
    raise exception 'Subscription not found' using errcode = 'P0002';
  end if;
  if not s.counted then
    raise exception 'This subscriber was not charged' using errcode = '22023';
  end if;
  if exists (select 1 from public.wallet_transactions
             where subscription_id = s.id and type = 'debit' and status = 'completed') then
    raise exception 'The screening period is over; this subscriber can no longer be refunded' using errcode = '22023';
  end if;
  for t in select * from public.wallet_transactions
           where subscription_id = s.id and type in ('hold', 'earning') and status = 'pending' order by type loop
    perform private.finish_ledger(t.id, 'canceled', t.description || ' — refunded: ' || coalesce(p_reason, 'rejected'));
    if t.type = 'hold' then
      refunded := -t.amount;
      perform private.post_ledger(t.user_id, 0, 'release', 'completed',
        'Hold released: ' || coalesce(p_reason, 'subscriber rejected'), 'subscription:' || s.id, s.campaign_id, s.id);
    end if;
  end loop;
  update public.campaigns set budget_spent = greatest(budget_spent - refunded, 0) where id = s.campaign_id;
  update public.campaign_source_stats set
    total_conversions = greatest(total_conversions - 1, 0),
    total_spend = total_spend - refunded,
    total_earnings = total_earnings - private.publisher_earning(refunded)
  where campaign_id = s.campaign_id and audience_source_id = s.audience_source_id;
  update public.newsletter_subscriptions set
    status = case when status = 'unsubscribed' then status else 'rejected' end, counted = false,
    not_counted_reason = null
  where id = s.id;
  perform private.log_moderation_event('subscription', s.id, s.status, 'rejected', p_reason);
  return jsonb_build_object('subscription_id', s.id, 'refunded', refunded);
end
$function$;

create or replace function private.subscription_daily()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  is_update boolean := tg_op = 'UPDATE';
  was_counted boolean := is_update and old.counted;
  old_reason text := case when is_update then old.not_counted_reason end;
  earning numeric(12, 2);
begin
  -- Subscriptions started through a source (a new attribution), and confirmations.
  if new.audience_source_id is not null then
    if not is_update or new.attributed_at is distinct from old.attributed_at then
      perform private.bump_source_day(new.audience_source_id, private.utc_day(coalesce(new.attributed_at, new.created_at)), 0, 0, 1, 0, 0, 0);
    end if;
    if new.confirmed_at is not null and (not is_update or old.confirmed_at is null) then
      perform private.bump_source_day(new.audience_source_id, private.utc_day(new.confirmed_at), 0, 0, 0, 1, 0, 0);
    end if;
  end if;
  -- Conversions, spend and earnings on the day of the confirmation.
  if new.counted and not was_counted then
    earning := private.publisher_earning(new.price);
    perform private.bump_campaign_source_day(new.campaign_id, new.audience_source_id, private.utc_day(new.confirmed_at),
      0, 0, 1, new.price, earning);
    perform private.bump_source_day(new.audience_source_id, private.utc_day(new.confirmed_at), 0, 0, 0, 0, 1, earning);
  elsif was_counted and not new.counted then
    earning := private.publisher_earning(old.price);
    perform private.bump_campaign_source_day(old.campaign_id, old.audience_source_id, private.utc_day(old.confirmed_at),
      0, 0, -1, -old.price, -earning);
    perform private.bump_source_day(old.audience_source_id, private.utc_day(old.confirmed_at), 0, 0, 0, 0, -1, -earning);
  end if;
  -- Reasons: the current state of every attributed subscription, on the day it was confirmed (else made).
  if old_reason is not null and (new.not_counted_reason is distinct from old_reason
      or new.audience_source_id is distinct from old.audience_source_id
      or coalesce(new.confirmed_at, new.created_at) is distinct from coalesce(old.confirmed_at, old.created_at)) then
    perform private.bump_not_counted('subscription', old_reason, old.audience_source_id, old.campaign_id,
      private.utc_day(coalesce(old.confirmed_at, old.created_at)), -1);
  end if;
  if new.not_counted_reason is not null and new.audience_source_id is not null and (old_reason is null
      or new.not_counted_reason is distinct from old_reason
      or new.audience_source_id is distinct from old.audience_source_id
      or coalesce(new.confirmed_at, new.created_at) is distinct from coalesce(old.confirmed_at, old.created_at)) then
    perform private.bump_not_counted('subscription', new.not_counted_reason, new.audience_source_id, new.campaign_id,
      private.utc_day(coalesce(new.confirmed_at, new.created_at)), 1);
  end if;
  return null;
end
$function$;
