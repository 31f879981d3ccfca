-- Baseline, subscriptions: newsletter subscriptions, confirmation, holds and the subscriber list.
--
-- One of the 13 files that replaced the 38 migrations of January 2026 (none had been applied to a hosted
-- database; docs/decisions.md), rendered from the schema they built with the changes listed in
-- supabase/tests/helpers/squash-changes.ts; supabase/tests/schema.test.ts proves everything else equal. The
-- history goes on in new migrations after these; the current state is read in supabase/schemas/.

-- === Tables ==============================================================================================

create table public.newsletter_subscriptions (
  id uuid default gen_random_uuid() not null,
  campaign_id uuid not null,
  email extensions.citext not null,
  status text default 'pending'::text not null,
  token_hash text,
  used_token_hash text,
  token_expires_at timestamp with time zone,
  armed_at timestamp with time zone default now() not null,
  confirmed_at timestamp with time zone,
  audience_source_id uuid,
  click_id uuid,
  counted boolean default false not null,
  not_counted_reason text,
  price numeric(12,2),
  subscribe_ip text,
  subscribe_user_agent text,
  confirm_ip text,
  confirm_user_agent text,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  email_canonical text generated always as (public.canonical_email((email)::text)) stored,
  visitor_hash text,
  reserved_amount numeric(12,2) default 0 not null,
  first_paid_at timestamp with time zone,
  attributed_at timestamp with time zone,
  constraint newsletter_subscriptions_pkey primary key (id),
  constraint newsletter_subscriptions_campaign_id_email_key unique (campaign_id, email),
  constraint newsletter_subscriptions_token_hash_key unique (token_hash),
  constraint newsletter_subscriptions_email_check check ((char_length((email)::text) <= 254)),
  constraint newsletter_subscriptions_not_counted_reason_check check ((not_counted_reason = any (array['source_inactive'::text, 'self_referral'::text, 'disposable_email'::text, 'duplicate_email'::text, 'too_fast_confirmation'::text, 'no_click'::text, 'velocity'::text, 'budget_exhausted'::text, 'refunded'::text]))),
  constraint newsletter_subscriptions_reserved_amount_check check ((reserved_amount >= (0)::numeric)),
  constraint newsletter_subscriptions_status_check check ((status = any ((enum_range(null::public.subscription_status))::text[]))),
  constraint newsletter_subscriptions_audience_source_id_fkey foreign key (audience_source_id) references public.audience_sources(id) on delete restrict,
  constraint newsletter_subscriptions_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete restrict,
  constraint newsletter_subscriptions_click_id_fkey foreign key (click_id) references public.link_clicks(id) on delete set null
);
alter table public.newsletter_subscriptions enable row level security;
create index newsletter_subscriptions_campaign_created_idx on public.newsletter_subscriptions using btree (campaign_id, created_at desc);
create index newsletter_subscriptions_canonical_idx on public.newsletter_subscriptions using btree (campaign_id, email_canonical);
create index newsletter_subscriptions_click_idx on public.newsletter_subscriptions using btree (click_id) where (click_id is not null);
create index newsletter_subscriptions_confirmed_email_trgm_idx on public.newsletter_subscriptions using gin (((email)::text) extensions.gin_trgm_ops) where (confirmed_at is not null);
create index newsletter_subscriptions_confirmed_idx on public.newsletter_subscriptions using btree (campaign_id, confirmed_at desc, id desc) where (confirmed_at is not null);
create index newsletter_subscriptions_ip_age_idx on public.newsletter_subscriptions using btree (created_at) where ((subscribe_ip is not null) or (confirm_ip is not null));
create index newsletter_subscriptions_reserved_idx on public.newsletter_subscriptions using btree (token_expires_at) where (reserved_amount > (0)::numeric);
create index newsletter_subscriptions_source_confirmed_idx on public.newsletter_subscriptions using btree (audience_source_id, confirmed_at desc) where counted;
create index newsletter_subscriptions_source_idx on public.newsletter_subscriptions using btree (audience_source_id);
create index newsletter_subscriptions_used_token_idx on public.newsletter_subscriptions using btree (used_token_hash) where (used_token_hash is not null);
comment on table public.newsletter_subscriptions is 'A visitor''s subscription to one campaign. counted says whether it was paid for; not_counted_reason says why not (null on an unattributed, free subscriber). budget_exhausted: confirmed but the campaign budget or advertiser balance could not pay.';
comment on column public.newsletter_subscriptions.price is 'The campaign''s price when the subscription was made through a source: what a confirmation charges, whatever the price is by then.';
comment on column public.newsletter_subscriptions.reserved_amount is 'Set aside from the campaign budget and the advertiser''s available balance until confirmed (then held), expired or refused (then released).';
comment on column public.newsletter_subscriptions.first_paid_at is 'When this address was first paid for on this campaign; never cleared (refunds, unsubscribes and re-subscribes keep it), so an inbox pays once per campaign, ever.';
comment on column public.newsletter_subscriptions.attributed_at is 'When the current source and click were attached (the subscribe request); the click must precede it by at most 24 hours.';
revoke select, insert, update, delete, truncate, references, trigger on table public.newsletter_subscriptions from anon, authenticated;
revoke truncate, references, trigger on table public.newsletter_subscriptions from service_role;
grant select (id, campaign_id, email, status, confirmed_at, audience_source_id, counted, not_counted_reason, price, created_at, updated_at) on public.newsletter_subscriptions to authenticated;

-- === Foreign keys to the tables above, from tables of earlier domains ====================================

alter table public.wallet_transactions add constraint wallet_transactions_subscription_id_fkey foreign key (subscription_id) references public.newsletter_subscriptions(id) on delete restrict;

-- === Functions ===========================================================================================

create function public.admin_refund_subscription(p_subscription_id uuid, p_reason text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  perform private.require_admin();
  return public.refund_subscription(p_subscription_id, p_reason);
end
$function$;
comment on function public.admin_refund_subscription(p_subscription_id uuid, p_reason text) is 'Admins settle disputes: refunds a subscriber during screening (audit-logged).';
revoke execute on function public.admin_refund_subscription(p_subscription_id uuid, p_reason text) from anon, public;

create function public.campaign_subscriber_count(p_campaign_id uuid, p_search text default null::text)
 returns bigint
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  pattern text := private.email_search_pattern(p_search);
begin
  perform private.check_subscriber_reader(p_campaign_id);
  return (select count(*) from public.newsletter_subscriptions s
    where s.campaign_id = p_campaign_id and s.confirmed_at is not null and (pattern is null or s.email::text ilike pattern));
end
$function$;
comment on function public.campaign_subscriber_count(p_campaign_id uuid, p_search text) is 'How many confirmed subscribers campaign_subscribers pages through (for the pager).';
revoke execute on function public.campaign_subscriber_count(p_campaign_id uuid, p_search text) from anon, public;

create function public.campaign_subscribers(p_campaign_id uuid, p_search text default null::text, p_limit integer default 25, p_offset integer default 0)
 returns table(id uuid, email text, confirmed_at timestamp with time zone, source_id uuid, source_name text, status text, counted boolean, not_counted_reason text, reason_label text, price numeric)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  pattern text := private.email_search_pattern(p_search);
begin
  perform private.check_subscriber_reader(p_campaign_id);
  if p_limit is null or p_limit < 1 or p_limit > 100 then
    raise exception 'Ask for 1 to 100 subscribers at a time' using errcode = '22023';
  end if;
  if p_offset is null or p_offset < 0 then
    raise exception 'The page must be 0 or more' using errcode = '22023';
  end if;
  return query
  select s.id, s.email::text, s.confirmed_at, s.audience_source_id, a.name, s.status, s.counted, s.not_counted_reason,
    r.label, case when s.counted then s.price end
  from public.newsletter_subscriptions s
  left join public.audience_sources a on a.id = s.audience_source_id
  left join public.not_counted_reasons r on r.code = s.not_counted_reason
  where s.campaign_id = p_campaign_id and s.confirmed_at is not null
    and (pattern is null or s.email::text ilike pattern)
  order by s.confirmed_at desc, s.id desc
  limit p_limit offset p_offset;
end
$function$;
comment on function public.campaign_subscribers(p_campaign_id uuid, p_search text, p_limit integer, p_offset integer) is 'One page of a campaign''s confirmed subscribers, newest first, optionally those whose address contains p_search: email, confirmed at, source, status, whether it was charged (else why not). The campaign''s advertiser or an admin.';
revoke execute on function public.campaign_subscribers(p_campaign_id uuid, p_search text, p_limit integer, p_offset integer) from anon, public;

create function public.campaign_subscribers_export(p_campaign_id uuid, p_after_confirmed_at timestamp with time zone default null::timestamp with time zone, p_after_id uuid default null::uuid, p_limit integer default 1000)
 returns table(id uuid, email text, confirmed_at timestamp with time zone, source_name text, status text, charged text)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.check_subscriber_reader(p_campaign_id);
  if p_limit is null or p_limit < 1 or p_limit > 5000 then
    raise exception 'Ask for 1 to 5000 subscribers at a time' using errcode = '22023';
  end if;
  return query
  select s.id, s.email::text, s.confirmed_at, a.name, s.status,
    case when s.counted then 'yes' when s.audience_source_id is null then 'no (no source)' else 'no (' || coalesce(r.label, s.not_counted_reason, 'not counted') || ')' end
  from public.newsletter_subscriptions s
  left join public.audience_sources a on a.id = s.audience_source_id
  left join public.not_counted_reasons r on r.code = s.not_counted_reason
  where s.campaign_id = p_campaign_id and s.confirmed_at is not null
    and (p_after_confirmed_at is null or (s.confirmed_at, s.id) < (p_after_confirmed_at, p_after_id))
  order by s.confirmed_at desc, s.id desc
  limit p_limit;
end
$function$;
comment on function public.campaign_subscribers_export(p_campaign_id uuid, p_after_confirmed_at timestamp with time zone, p_after_id uuid, p_limit integer) is 'export-subscribers: the next page of a campaign''s confirmed subscribers after (confirmed_at, id), newest first, for the CSV. Never a pending address.';
revoke execute on function public.campaign_subscribers_export(p_campaign_id uuid, p_after_confirmed_at timestamp with time zone, p_after_id uuid, p_limit integer) from anon, public;

create function private.check_subscriber_reader(p_campaign_id uuid)
 returns void
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  if (select auth.uid()) is null and auth.role() <> 'service_role' then
    raise exception 'Sign in to see subscribers' using errcode = '42501';
  end if;
  perform private.require_live_session();
  if not public.is_admin() and auth.role() <> 'service_role'
     and not exists (select 1 from public.campaigns where id = p_campaign_id and advertiser_id = (select auth.uid())) then
    raise exception 'You can only see subscribers of your own campaigns' using errcode = '42501';
  end if;
end
$function$;
comment on function private.check_subscriber_reader(p_campaign_id uuid) is 'Internal: the campaign''s advertiser (or an admin) may read its subscribers.';
revoke execute on function private.check_subscriber_reader(p_campaign_id uuid) from public;

create function private.click_backs_subscription(p_click_id uuid, p_source_id uuid, p_ip text, p_user_agent text, p_at timestamp with time zone)
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select exists (
    select 1 from public.link_clicks l
    where l.id = p_click_id and l.audience_source_id = p_source_id and l.counted
      and l.created_at <= p_at and l.created_at > p_at - interval '24 hours'
      -- Same visitor: the address and browser of the click (raw IPs are kept 30 days, the window is 24 hours,
      -- so this is the visitor hash without depending on which day's salt made it).
      and l.ip is not distinct from p_ip and l.user_agent is not distinct from p_user_agent
  )
$function$;
comment on function private.click_backs_subscription(p_click_id uuid, p_source_id uuid, p_ip text, p_user_agent text, p_at timestamp with time zone) is 'Internal: the no_click rule — a counted click of the same source by the same visitor within 24 hours before subscribing.';
revoke execute on function private.click_backs_subscription(p_click_id uuid, p_source_id uuid, p_ip text, p_user_agent text, p_at timestamp with time zone) from public;

create function public.confirm_subscription(p_token_hash text, p_email text, p_ip text default null::text, p_user_agent text default null::text)
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
    earning := round(s.price * (1 - fee_rate), 2);
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
comment on function public.confirm_subscription(p_token_hash text, p_email text, p_ip text, p_user_agent text) is 'verify-subscription edge function, service role only: confirms once within 48 h; applies the paid-subscriber rule; a paid subscriber turns its reservation into a hold at the locked price (counted=false with a null reason means an unattributed, free subscriber).';
revoke execute on function public.confirm_subscription(p_token_hash text, p_email text, p_ip text, p_user_agent text) from anon, authenticated, public;

create function public.create_pending_subscriptions(p_email text, p_campaign_ids uuid[], p_token_hashes text[], p_audience_source_id uuid default null::uuid, p_click_id uuid default null::uuid, p_ip text default null::text, p_user_agent text default null::text)
 returns table(campaign_id uuid, campaign_name text, result text)
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
    perform private.lock_wallet((select advertiser_id from public.campaigns where id = p_campaign_ids[i]));
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
         or private.wallet_available(c.advertiser_id) < c.price_per_subscriber then
        raise exception 'This newsletter is not accepting subscribers' using errcode = '22023';
      end if;
      update public.newsletter_subscriptions set price = c.price_per_subscriber, reserved_amount = c.price_per_subscriber
        where id = s.id;
      update public.campaigns set budget_reserved = budget_reserved + c.price_per_subscriber,
        reservations_open = reservations_open + 1
        where id = c.id;
      perform private.refresh_campaign_funding(c.advertiser_id);
    end if;
    result := 'pending';
    return next;
  end loop;
end
$function$;
comment on function public.create_pending_subscriptions(p_email text, p_campaign_ids uuid[], p_token_hashes text[], p_audience_source_id uuid, p_click_id uuid, p_ip text, p_user_agent text) is 'subscribe edge function, service role only: one pending row per campaign (new, or re-armed when expired or unsubscribed; a live pending one only gets a new token and keeps its attribution). Reserves the locked price when the subscriber would be paid for. result: pending | already_confirmed | rejected. All or nothing.';
revoke execute on function public.create_pending_subscriptions(p_email text, p_campaign_ids uuid[], p_token_hashes text[], p_audience_source_id uuid, p_click_id uuid, p_ip text, p_user_agent text) from anon, authenticated, public;

create function private.enqueue_subscriber_event(p_event text, s public.newsletter_subscriptions)
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  c public.campaigns;
  n integer;
  payload jsonb;
begin
  select * into c from public.campaigns where id = s.campaign_id;
  if not exists (select 1 from public.webhook_endpoints w where w.advertiser_id = c.advertiser_id and w.enabled
                 and p_event = any (w.events) and (w.campaign_id is null or w.campaign_id = c.id)) then
    return 0;
  end if;
  payload := jsonb_build_object(
    'type', p_event,
    'timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'data', jsonb_build_object(
      'subscription_id', s.id,
      'campaign_id', c.id,
      'campaign_name', c.name,
      'email', s.email::text,
      'confirmed_at', to_char(s.confirmed_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'source_name', (select a.name from public.audience_sources a where a.id = s.audience_source_id),
      'charged', s.counted,
      'price', case when s.counted or p_event = 'subscriber.refunded' then s.price end,
      'reason', case when p_event = 'subscriber.refunded' then 'refunded' else s.not_counted_reason end));
  insert into public.webhook_deliveries (endpoint_id, advertiser_id, event_type, subscription_id, payload)
  select w.id, w.advertiser_id, p_event, s.id, payload
  from public.webhook_endpoints w
  where w.advertiser_id = c.advertiser_id and w.enabled and p_event = any (w.events)
    and (w.campaign_id is null or w.campaign_id = c.id);
  get diagnostics n = row_count;
  perform private.kick_edge_function('deliver-webhooks', 120000);
  return n;
end
$function$;
comment on function private.enqueue_subscriber_event(p_event text, s public.newsletter_subscriptions) is 'Internal: queues a subscriber event for every endpoint that takes it, and asks for delivery after commit.';
revoke execute on function private.enqueue_subscriber_event(p_event text, s public.newsletter_subscriptions) from public;

create function private.in_screening(p_subscription_id uuid)
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select exists (select 1 from public.wallet_transactions t
                 where t.subscription_id = p_subscription_id and t.type = 'hold' and t.status = 'pending')
$function$;
comment on function private.in_screening(p_subscription_id uuid) is 'Internal: whether a charged subscriber is still in screening (its hold pending), so a dispute can refund it.';
revoke execute on function private.in_screening(p_subscription_id uuid) from public;

create function private.paid_subscriber_refusal(s public.newsletter_subscriptions, p_confirming boolean)
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
$function$;
comment on function private.paid_subscriber_refusal(s public.newsletter_subscriptions, p_confirming boolean) is 'PRODUCT "What counts as a paid subscriber", in one place: null when the attributed subscriber is paid for, else the reason code.';
revoke execute on function private.paid_subscriber_refusal(s public.newsletter_subscriptions, p_confirming boolean) from public;

create function public.refund_subscription(p_subscription_id uuid, p_reason text)
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
    total_earnings = total_earnings - round(refunded * 0.8, 2)
  where campaign_id = s.campaign_id and audience_source_id = s.audience_source_id;
  update public.newsletter_subscriptions set
    status = case when status = 'unsubscribed' then status else 'rejected' end, counted = false,
    not_counted_reason = null
  where id = s.id;
  perform private.log_moderation_event('subscription', s.id, s.status, 'rejected', p_reason);
  return jsonb_build_object('subscription_id', s.id, 'refunded', refunded);
end
$function$;
comment on function public.refund_subscription(p_subscription_id uuid, p_reason text) is 'Service role (and admins through admin_refund_subscription): during screening, cancels the hold (nothing was charged) and the pending earning, and marks the subscriber rejected.';
revoke execute on function public.refund_subscription(p_subscription_id uuid, p_reason text) from anon, authenticated, public;

create function private.subscription_attributes_click()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if new.click_id is not null and (tg_op = 'INSERT' or old.click_id is distinct from new.click_id) then
    perform private.attribute_click(new.click_id, new.campaign_id, false);
  end if;
  return null;
end
$function$;
comment on function private.subscription_attributes_click() is 'Internal trigger: a subscription made on a click makes the click belong to that campaign.';
revoke execute on function private.subscription_attributes_click() from public;

create function public.take_confirmation_email_allowance(p_email text)
 returns integer
 language sql
 security definer
 set search_path to ''
as $function$
  select private.hit_rate_limit('confirmation-inbox:' || public.canonical_email(p_email), 3, interval '1 hour')
$function$;
comment on function public.take_confirmation_email_allowance(p_email text) is 'subscribe and send-backup-confirmation, service role only: counts one confirmation email to this inbox (canonical address); 0 when allowed, else the seconds until the next one may go.';
revoke execute on function public.take_confirmation_email_allowance(p_email text) from anon, authenticated, public;

-- === Triggers ============================================================================================

create trigger newsletter_subscriptions_attribute_click after insert or update of click_id on public.newsletter_subscriptions for each row execute function private.subscription_attributes_click();

create trigger newsletter_subscriptions_immutable before update on public.newsletter_subscriptions for each row execute function public.forbid_column_changes('campaign_id', 'email');

create trigger newsletter_subscriptions_set_updated_at before update on public.newsletter_subscriptions for each row execute function public.set_updated_at();

-- === Row-level security policies =========================================================================

create policy "Admins can read every subscription" on public.newsletter_subscriptions
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Advertisers can read confirmed subscribers of their campaigns" on public.newsletter_subscriptions
  for select to authenticated
  using (((confirmed_at is not null) and (exists ( select 1
   from public.campaigns c
  where ((c.id = newsletter_subscriptions.campaign_id) and (c.advertiser_id = ( select auth.uid() as uid)))))));
