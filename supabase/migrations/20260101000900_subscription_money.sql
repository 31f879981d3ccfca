-- The money of a confirmed subscriber: confirm_subscription decides whether it counts and places the
-- advertiser's pending hold and the publisher's pending earning; after the 7-day screening
-- settle_matured_holds releases the hold as a completed debit and completes the earning; during it,
-- refund_subscription cancels both (with a release row saying why). All service role only.

create function public.confirm_subscription(
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
  publisher_email text;
  advertiser_email text;
  reason text;
  fee_rate constant numeric := 0.20;
  screening constant interval := interval '7 days';
  earning numeric(12, 2);
begin
  select * into s from public.newsletter_subscriptions
    where token_hash = p_token_hash or used_token_hash = p_token_hash
    limit 1 for update;
  if not found or p_token_hash is null or s.email is distinct from lower(trim(coalesce(p_email, '')))::extensions.citext then
    return jsonb_build_object('result', 'invalid', 'newsletter_name', null, 'campaign_id', null, 'counted', false, 'not_counted_reason', null);
  end if;
  -- Lock order wallet, then campaign (as the ledger writers do) so concurrent money events never deadlock.
  perform public.lock_wallet((select advertiser_id from public.campaigns where id = s.campaign_id));
  select * into c from public.campaigns where id = s.campaign_id for update;
  if s.used_token_hash = p_token_hash and s.status = 'confirmed' then
    return jsonb_build_object('result', 'already_confirmed', 'newsletter_name', c.name, 'campaign_id', c.id,
      'counted', s.counted, 'not_counted_reason', s.not_counted_reason);
  end if;
  if s.token_hash is distinct from p_token_hash then
    return jsonb_build_object('result', 'invalid', 'newsletter_name', null, 'campaign_id', null, 'counted', false, 'not_counted_reason', null);
  end if;
  if s.status = 'expired' or (s.status = 'pending' and s.token_expires_at <= now()) then
    update public.newsletter_subscriptions set status = 'expired' where id = s.id;
    return jsonb_build_object('result', 'expired', 'newsletter_name', c.name, 'campaign_id', c.id, 'counted', false, 'not_counted_reason', null);
  end if;
  if s.status <> 'pending' then
    return jsonb_build_object('result', 'invalid', 'newsletter_name', null, 'campaign_id', null, 'counted', false, 'not_counted_reason', null);
  end if;

  if s.audience_source_id is not null then
    select * into src from public.audience_sources where id = s.audience_source_id;
    select p.email::text into publisher_email from public.profiles p where p.id = src.publisher_id;
    select p.email::text into advertiser_email from public.profiles p where p.id = c.advertiser_id;
    reason := case
      when not public.is_source_public(src.status) then 'source_inactive'
      when clock_timestamp() - s.armed_at < interval '2 seconds' then 'too_fast_confirmation'
      when s.email_folded in (public.fold_email(publisher_email), public.fold_email(advertiser_email)) then 'self_referral'
      when exists (select 1 from public.newsletter_subscriptions o
                   where o.campaign_id = s.campaign_id and o.email_folded = s.email_folded and o.counted and o.id <> s.id)
        then 'duplicate_email'
    end;
    if reason is null then
      if c.budget_spent + c.price_per_subscriber > c.budget_total
         or public.wallet_available(c.advertiser_id) < c.price_per_subscriber then
        reason := 'budget_exhausted';
      end if;
    end if;
  end if;

  update public.newsletter_subscriptions set
    status = 'confirmed', confirmed_at = now(), token_hash = null, used_token_hash = p_token_hash,
    confirm_ip = left(p_ip, 100), confirm_user_agent = left(p_user_agent, 1000),
    counted = s.audience_source_id is not null and reason is null,
    not_counted_reason = reason,
    price = case when s.audience_source_id is not null and reason is null then c.price_per_subscriber end
  where id = s.id
  returning * into s;

  if s.counted then
    earning := round(c.price_per_subscriber * (1 - fee_rate), 2);
    perform public.post_ledger(c.advertiser_id, -c.price_per_subscriber, 'hold', 'pending',
      'Subscriber to ' || c.name || ' (on hold during screening)', 'subscription:' || s.id, c.id, s.id, now() + screening);
    perform public.post_ledger(src.publisher_id, earning, 'earning', 'pending',
      'Subscriber to ' || c.name || ' via ' || src.name, 'subscription:' || s.id, c.id, s.id, now() + screening);
    update public.campaigns set budget_spent = budget_spent + c.price_per_subscriber where id = c.id;
    perform public.bump_campaign_source_stats(c.id, src.id, 0, 0, 1, c.price_per_subscriber, earning);
  end if;

  return jsonb_build_object('result', 'confirmed', 'newsletter_name', c.name, 'campaign_id', c.id,
    'counted', s.counted, 'not_counted_reason', s.not_counted_reason);
end
$$;
comment on function public.confirm_subscription(text, text, text, text) is
  'verify-subscription edge function, service role only: confirms once within 48 h, then counts and charges the conversion or records why not (counted=false with a null reason means an unattributed, free subscriber).';
revoke execute on function public.confirm_subscription(text, text, text, text) from public, anon, authenticated;
grant execute on function public.confirm_subscription(text, text, text, text) to service_role;

create function public.settle_matured_holds(p_now timestamptz default now())
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  t public.wallet_transactions;
  settled integer := 0;
begin
  for t in
    select * from public.wallet_transactions
    where status = 'pending' and type in ('hold', 'earning') and available_at <= p_now
    order by user_id, id
    for update skip locked
  loop
    if t.type = 'earning' then
      if public.finish_ledger(t.id, 'completed') then
        settled := settled + 1;
      end if;
    -- A hold is released and the charge becomes a completed debit: what the advertiser finally paid.
    elsif public.finish_ledger(t.id, 'canceled', t.description || ' — released after screening') then
      perform public.post_ledger(t.user_id, t.amount, 'debit', 'completed',
        replace(t.description, ' (on hold during screening)', ''), t.reference, t.campaign_id, t.subscription_id);
      settled := settled + 1;
    end if;
  end loop;
  return settled;
end
$$;
comment on function public.settle_matured_holds(timestamptz) is
  'Scheduled, service role only: after screening each hold is released as a completed debit and each earning becomes available. Returns how many holds and earnings settled.';
revoke execute on function public.settle_matured_holds(timestamptz) from public, anon, authenticated;
grant execute on function public.settle_matured_holds(timestamptz) to service_role;

create function public.refund_subscription(p_subscription_id uuid, p_reason text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
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
    perform public.finish_ledger(t.id, 'canceled', t.description || ' — refunded: ' || coalesce(p_reason, 'rejected'));
    if t.type = 'hold' then
      refunded := -t.amount;
      perform public.post_ledger(t.user_id, 0, 'release', 'completed',
        'Hold released: ' || coalesce(p_reason, 'subscriber rejected'), 'subscription:' || s.id, s.campaign_id, s.id);
    end if;
  end loop;
  update public.campaigns set budget_spent = greatest(budget_spent - refunded, 0) where id = s.campaign_id;
  update public.campaign_source_stats set
    total_conversions = greatest(total_conversions - 1, 0),
    total_spend = total_spend - refunded,
    total_earnings = total_earnings - round(refunded * 0.8, 2)
  where campaign_id = s.campaign_id and audience_source_id = s.audience_source_id;
  update public.newsletter_subscriptions set
    status = case when status = 'unsubscribed' then status else 'rejected' end, counted = false,
    not_counted_reason = null
  where id = s.id;
  perform public.log_moderation_event('subscription', s.id, s.status, 'rejected', p_reason);
  return jsonb_build_object('subscription_id', s.id, 'refunded', refunded);
end
$$;
comment on function public.refund_subscription(uuid, text) is
  'Service role (and admins through admin_refund_subscription): during screening, cancels the hold (nothing was charged) and the pending earning, and marks the subscriber rejected.';
revoke execute on function public.refund_subscription(uuid, text) from public, anon, authenticated;
grant execute on function public.refund_subscription(uuid, text) to service_role;

create function public.admin_refund_subscription(p_subscription_id uuid, p_reason text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.require_admin();
  return public.refund_subscription(p_subscription_id, p_reason);
end
$$;
comment on function public.admin_refund_subscription(uuid, text) is 'Admins settle disputes: refunds a subscriber during screening (audit-logged).';
revoke execute on function public.admin_refund_subscription(uuid, text) from public, anon, authenticated;
grant execute on function public.admin_refund_subscription(uuid, text) to authenticated;
