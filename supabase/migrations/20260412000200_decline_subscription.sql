-- "Decline this newsletter" (issue 23): the confirmation email carries, beside each confirm link, a link to decline
-- with the same token. Declining a pending subscription ends it the way an expiry does — one function,
-- private.end_pending_subscription, now used by the scheduled expiry, by confirm_subscription's expired branch and
-- by decline_subscription — so its reservation goes back to the campaign's budget and the advertiser's available
-- balance, and nothing is ever charged. A confirmed subscription cannot be declined (its reader unsubscribes);
-- declining again answers the same. A declined address may subscribe again later (create_pending_subscriptions
-- re-arms any row that is not pending, confirmed or rejected).
alter type public.subscription_status add value if not exists 'declined';

create function private.end_pending_subscription(p_subscription_id uuid, p_status public.subscription_status)
 returns numeric
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  released numeric(12, 2);
begin
  if p_status::text not in ('expired', 'declined') then
    raise exception 'A pending subscription ends expired or declined' using errcode = '22023';
  end if;
  released := private.release_reservation(p_subscription_id);
  update public.newsletter_subscriptions set status = p_status::text
    where id = p_subscription_id and status in ('pending', 'expired');
  return released;
end
$function$;
comment on function private.end_pending_subscription(p_subscription_id uuid, p_status public.subscription_status) is 'Internal: the one way a pending subscription ends unconfirmed (expired after 48 h, or declined by its reader): its reservation is released and it takes that status. The caller holds the advertiser''s wallet lock. Returns what was released.';
revoke execute on function private.end_pending_subscription(p_subscription_id uuid, p_status public.subscription_status) from public;

create or replace function public.expire_reservations(p_now timestamp with time zone default now())
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
    perform private.lock_wallet(s.advertiser_id);
    perform private.end_pending_subscription(s.id, 'expired');
    expired := expired + 1;
  end loop;
  return expired;
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

create function public.decline_subscription(p_token_hash text, p_email text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  s public.newsletter_subscriptions;
  c public.campaigns;
begin
  select * into s from public.newsletter_subscriptions
    where token_hash = p_token_hash or used_token_hash = p_token_hash
    limit 1;
  if not found or p_token_hash is null or s.email is distinct from lower(trim(coalesce(p_email, '')))::extensions.citext then
    return jsonb_build_object('result', 'invalid', 'newsletter_name', null, 'campaign_id', null);
  end if;
  -- Lock order wallet, then campaign, then subscription (as every money function) so they never deadlock.
  perform private.lock_wallet((select advertiser_id from public.campaigns where id = s.campaign_id));
  select * into c from public.campaigns where id = s.campaign_id for update;
  select * into s from public.newsletter_subscriptions where id = s.id for update;
  if s.used_token_hash = p_token_hash and s.status in ('confirmed', 'declined') then
    return jsonb_build_object('result', case when s.status = 'confirmed' then 'already_confirmed' else 'declined' end,
      'newsletter_name', c.name, 'campaign_id', c.id);
  end if;
  if s.token_hash is distinct from p_token_hash or s.status not in ('pending', 'expired') then
    return jsonb_build_object('result', 'invalid', 'newsletter_name', null, 'campaign_id', null);
  end if;
  perform private.end_pending_subscription(s.id, 'declined');
  update public.newsletter_subscriptions set token_hash = null, used_token_hash = p_token_hash where id = s.id;
  return jsonb_build_object('result', 'declined', 'newsletter_name', c.name, 'campaign_id', c.id);
end
$function$;
comment on function public.decline_subscription(p_token_hash text, p_email text) is 'decline-subscription edge function, service role only: the reader of a confirmation email declines one newsletter with its confirm token. A pending (or expired) subscription ends declined and gives its reservation back, as an expiry does; nothing is charged. Declining again answers declined; a confirmed one answers already_confirmed and stays. result: declined | already_confirmed | invalid.';
revoke execute on function public.decline_subscription(p_token_hash text, p_email text) from anon, authenticated, public;
