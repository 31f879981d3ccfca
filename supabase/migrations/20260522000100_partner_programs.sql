-- Partner programs (issue 40; PRODUCT "Partner programs", ARCHITECTURE "Wave 4 interfaces").
--
-- An advertiser chooses who may promote each newsletter: `campaigns.partner_mode` 'open' (any approved source, as
-- before) or 'approval' (only sources the advertiser approved). Publishers apply with a source and a short message
-- (apply_to_campaign); the advertiser approves, declines or blocks (decide_partner), and may give an approved partner
-- its own price within the newsletter price range (0.50–50.00). Any source can be blocked in either mode.
--
-- The rule (private.paid_subscriber_refusal, at subscribe and again at confirmation): a subscriber through a blocked
-- source, or through a source not approved for a newsletter by approval, is not counted, reason `not_a_partner` —
-- nothing reserved, nothing charged, nothing earned. A partner's own price is the price reserved and locked on its
-- new subscriptions (create_pending_subscriptions); the publisher earns it minus the 20% fee (private.publisher_earning,
-- unchanged), and subscriptions already pending keep the price they were made at.
--
-- 'declined' is recorded apart from 'blocked': a declined application is an answer ("not now"), after which the
-- publisher may apply again 7 days later; a blocked source is refused in both modes and cannot apply. In an open
-- newsletter a declined source still promotes it (declining only answers an application); block it to stop it.
--
-- Emails: the advertiser on a new application (`partner_applied`), the publisher on a decision (`partner_decided`).

-- === Vocabulary ============================================================================================

create type public.partner_mode as enum ('open', 'approval');
comment on type public.partner_mode is 'Who may promote a newsletter: open (any approved source) or approval (only the sources its advertiser approved).';

create type public.partner_status as enum ('applied', 'approved', 'declined', 'blocked');
comment on type public.partner_status is 'Where a source stands with a newsletter''s partner program: applied (waiting for the advertiser), approved (a partner, maybe at its own price), declined (the application was answered no; it may apply again 7 days later), blocked (never paid, in either mode).';

alter type public.not_counted_reason add value if not exists 'not_engaged';
alter type public.not_counted_reason add value if not exists 'not_a_partner';

-- Every subscription reason so far, not_engaged (engagement-verified pay) and not_a_partner.
alter table public.newsletter_subscriptions drop constraint newsletter_subscriptions_not_counted_reason_check;
alter table public.newsletter_subscriptions add constraint newsletter_subscriptions_not_counted_reason_check
  check ((not_counted_reason = any (array['source_inactive'::text, 'account_suspended'::text, 'self_referral'::text, 'disposable_email'::text, 'duplicate_email'::text, 'too_fast_confirmation'::text, 'no_click'::text, 'velocity'::text, 'address_velocity'::text, 'domain_velocity'::text, 'budget_exhausted'::text, 'refunded'::text, 'not_engaged'::text, 'not_a_partner'::text])));

insert into public.not_counted_reasons (code, label, applies_to, position)
select 'not_engaged', 'Did not open or click within the window', '{subscription}', max(position) + 1
from public.not_counted_reasons
on conflict (code) do nothing;
insert into public.not_counted_reasons (code, label, applies_to, position)
select 'not_a_partner', 'Not a partner of this newsletter', '{subscription}', max(position) + 1
from public.not_counted_reasons;

-- === The newsletter's mode =================================================================================

alter table public.campaigns add column partner_mode text not null default 'open'
  constraint campaigns_partner_mode_check check (partner_mode = any ((enum_range(null::public.partner_mode))::text[]));
comment on column public.campaigns.partner_mode is 'Who may promote it: open (any approved source, unless blocked) or approval (only sources with an approved campaign_partners row). Set by the advertiser on the newsletter form; decides every confirmation from then on (a pending subscriber through a source that is no longer allowed confirms unpaid, not_a_partner).';
grant insert (partner_mode) on public.campaigns to authenticated;
grant update (partner_mode) on public.campaigns to authenticated;

-- === Partners ==============================================================================================

create table public.campaign_partners (
  id uuid not null default gen_random_uuid(),
  campaign_id uuid not null,
  source_id uuid not null,
  status text not null,
  price_override numeric(12, 2),
  message text,
  created_at timestamp with time zone not null default now(),
  decided_at timestamp with time zone,
  constraint campaign_partners_pkey primary key (id),
  constraint campaign_partners_campaign_source_key unique (campaign_id, source_id),
  constraint campaign_partners_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete cascade,
  constraint campaign_partners_source_id_fkey foreign key (source_id) references public.audience_sources(id) on delete cascade,
  constraint campaign_partners_status_check check (status = any ((enum_range(null::public.partner_status))::text[])),
  constraint campaign_partners_price_override_check check (price_override between 0.50 and 50.00),
  constraint campaign_partners_price_only_approved check (price_override is null or status = 'approved'),
  constraint campaign_partners_message_check check (char_length(message) <= 500),
  constraint campaign_partners_decided_check check ((decided_at is null) = (status = 'applied'))
);
alter table public.campaign_partners enable row level security;
create index campaign_partners_source_idx on public.campaign_partners using btree (source_id);
comment on table public.campaign_partners is 'A source''s standing with a newsletter''s partner program: its application (message, created_at), the advertiser''s decision (status, decided_at) and an approved partner''s own price (price_override, null: the newsletter''s price). Written only by apply_to_campaign and decide_partner; read by the newsletter''s advertiser and the source''s publisher.';
comment on column public.campaign_partners.price_override is 'An approved partner''s own price per subscriber (0.50–50.00), reserved and locked on its new subscriptions; the publisher earns it minus the 20% fee. Null: the newsletter''s price.';
comment on column public.campaign_partners.created_at is 'When the source applied (again, after a decline), or when the advertiser first decided about a source that never applied.';
grant select on table public.campaign_partners to authenticated;
grant select, insert, update, delete on table public.campaign_partners to service_role;

create policy "Advertisers and publishers can read the partnerships of their newsletters and sources" on public.campaign_partners
  for select to authenticated
  using (exists (select 1 from public.campaigns c where c.id = campaign_partners.campaign_id and c.advertiser_id = (select auth.uid()))
      or exists (select 1 from public.audience_sources a where a.id = campaign_partners.source_id and a.publisher_id = (select auth.uid())));
create policy "Admins can read every partnership" on public.campaign_partners
  for select to authenticated
  using ((select public.is_admin()));

-- === The rule's helpers ====================================================================================

create function private.source_may_promote(p_campaign_id uuid, p_source_id uuid)
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select case
    when p.status = 'blocked' then false
    when c.partner_mode = 'approval' then p.status is not distinct from 'approved'
    else true
  end
  from public.campaigns c
  left join public.campaign_partners p on p.campaign_id = c.id and p.source_id = p_source_id
  where c.id = p_campaign_id
$function$;
comment on function private.source_may_promote(p_campaign_id uuid, p_source_id uuid) is 'Internal: whether subscribers through this source may be paid by this newsletter (not blocked; approved when the newsletter is by approval). The not_a_partner rule.';
revoke execute on function private.source_may_promote(p_campaign_id uuid, p_source_id uuid) from public;

create function private.partner_price(p_campaign_id uuid, p_source_id uuid)
 returns numeric
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce(
    (select p.price_override from public.campaign_partners p
     where p.campaign_id = p_campaign_id and p.source_id = p_source_id and p.status = 'approved'),
    (select c.price_per_subscriber from public.campaigns c where c.id = p_campaign_id))
$function$;
comment on function private.partner_price(p_campaign_id uuid, p_source_id uuid) is 'Internal: the price a new subscriber through this source pays — an approved partner''s own price, else the newsletter''s.';
revoke execute on function private.partner_price(p_campaign_id uuid, p_source_id uuid) from public;

-- === Applying ==============================================================================================

create function public.apply_to_campaign(p_campaign_id uuid, p_source_id uuid, p_message text default null)
 returns uuid
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  me uuid := (select auth.uid());
  note text := nullif(trim(p_message), '');
  c public.campaigns;
  src public.audience_sources;
  p public.campaign_partners;
begin
  perform private.require_aal2();
  if not exists (select 1 from public.profiles where id = me and user_type = 'publisher') then
    raise exception 'Only influencers can apply to promote a newsletter' using errcode = '42501';
  end if;
  select * into src from public.audience_sources where id = p_source_id;
  if not found or src.publisher_id is distinct from me then
    raise exception 'You can only apply with your own sources' using errcode = '42501';
  end if;
  if not public.is_source_public(src.status) then
    raise exception 'Your source must be approved before it can apply' using errcode = '22023';
  end if;
  if char_length(note) > 500 then
    raise exception 'Keep the message under 500 characters' using errcode = '22023';
  end if;
  select * into c from public.campaigns where id = p_campaign_id;
  if not found or c.status not in ('active', 'paused') or public.account_is_suspended(c.advertiser_id) then
    raise exception 'This newsletter is not taking partners' using errcode = '22023';
  end if;
  if c.partner_mode <> 'approval' then
    raise exception 'This newsletter is open to every approved source: share your link, no need to apply'
      using errcode = '22023';
  end if;
  select * into p from public.campaign_partners where campaign_id = c.id and source_id = src.id for update;
  if found then
    if p.status = 'approved' then
      raise exception 'This source is already a partner of this newsletter' using errcode = '22023';
    elsif p.status = 'blocked' then
      raise exception 'The advertiser does not work with this source on this newsletter' using errcode = '42501';
    elsif p.status = 'applied' then
      -- Still waiting: the new words replace the old, and the advertiser is not emailed twice.
      update public.campaign_partners set message = note where id = p.id;
      return p.id;
    elsif p.decided_at > now() - interval '7 days' then
      raise exception 'The advertiser declined this application: you can apply again 7 days after the decline'
        using errcode = '22023',
        hint = 'You can apply again from ' || to_char((p.decided_at + interval '7 days') at time zone 'utc', 'Mon FMDD, YYYY') || ' (UTC).';
    end if;
    update public.campaign_partners set status = 'applied', message = note, created_at = now(), decided_at = null,
      price_override = null
      where id = p.id
      returning * into p;
  else
    insert into public.campaign_partners (campaign_id, source_id, status, message)
    values (c.id, src.id, 'applied', note)
    returning * into p;
  end if;
  perform private.enqueue_notification(c.advertiser_id, 'partner_applied', jsonb_build_object(
      'campaign_id', c.id, 'campaign_name', c.name, 'source_name', src.name, 'platform', src.platform,
      'message', note),
    'partner_applied:' || p.id || ':' || extract(epoch from p.created_at)::text);
  return p.id;
end
$function$;
comment on function public.apply_to_campaign(p_campaign_id uuid, p_source_id uuid, p_message text) is 'A publisher (live session, aal2 with a factor) applies with one of its own approved sources to a newsletter by approval, with a message of at most 500 characters; the advertiser is emailed (partner_applied). Applying again while waiting replaces the message; after a decline, 7 days later; a blocked source cannot apply. Returns the campaign_partners id.';
revoke execute on function public.apply_to_campaign(p_campaign_id uuid, p_source_id uuid, p_message text) from public;
grant execute on function public.apply_to_campaign(p_campaign_id uuid, p_source_id uuid, p_message text) to authenticated, service_role;

-- === Deciding ==============================================================================================

create function public.decide_partner(p_campaign_id uuid, p_source_id uuid, p_status text, p_price_override numeric default null)
 returns uuid
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  me uuid := (select auth.uid());
  c public.campaigns;
  src public.audience_sources;
  p public.campaign_partners;
  was public.campaign_partners;
  price numeric(12, 2);
begin
  perform private.require_aal2();
  if not exists (select 1 from public.profiles where id = me and user_type = 'advertiser') then
    raise exception 'Only advertisers decide who promotes their newsletters' using errcode = '42501';
  end if;
  select * into c from public.campaigns where id = p_campaign_id;
  if not found or c.advertiser_id is distinct from me then
    raise exception 'You can only decide the partners of your own newsletters' using errcode = '42501';
  end if;
  if p_status is null or p_status not in ('approved', 'declined', 'blocked') then
    raise exception 'Choose approve, decline or block' using errcode = '22023';
  end if;
  select * into src from public.audience_sources where id = p_source_id;
  if not found then
    raise exception 'Source not found' using errcode = 'P0002';
  end if;
  if p_price_override is not null then
    if p_status <> 'approved' then
      raise exception 'Only an approved partner can have its own price' using errcode = '22023';
    end if;
    if p_price_override < 0.50 then
      raise exception 'Price per subscriber must be at least 0.50 credits' using errcode = '23514';
    elsif p_price_override > 50.00 then
      raise exception 'Price per subscriber must be at most 50.00 credits' using errcode = '23514';
    elsif p_price_override <> round(p_price_override, 2) then
      raise exception 'Use at most two decimals' using errcode = '22023';
    end if;
  end if;
  select * into was from public.campaign_partners where campaign_id = c.id and source_id = src.id for update;
  if p_status = 'declined' and was.status is distinct from 'applied' then
    raise exception 'Only an application can be declined: block the source to stop it promoting %', c.name
      using errcode = '22023';
  end if;
  insert into public.campaign_partners as cp (campaign_id, source_id, status, price_override, decided_at)
  values (c.id, src.id, p_status, p_price_override, now())
  on conflict (campaign_id, source_id) do update
    set status = excluded.status, price_override = excluded.price_override, decided_at = excluded.decided_at
  returning * into p;
  price := coalesce(p.price_override, c.price_per_subscriber);
  -- The publisher hears of a change, not of the same decision twice.
  if was.id is null or was.status is distinct from p.status or was.price_override is distinct from p.price_override then
    perform private.enqueue_notification(src.publisher_id, 'partner_decided', jsonb_build_object(
        'campaign_id', c.id, 'campaign_name', c.name, 'source_name', src.name, 'status', p.status,
        'price', case when p.status = 'approved' then price end,
        'earning', case when p.status = 'approved' then private.publisher_earning(price) end,
        'own_price', p.price_override is not null),
      'partner_decided:' || p.id || ':' || extract(epoch from p.decided_at)::text);
  end if;
  return p.id;
end
$function$;
comment on function public.decide_partner(p_campaign_id uuid, p_source_id uuid, p_status text, p_price_override numeric) is 'The newsletter''s advertiser (live session, aal2 with a factor) approves (optionally at the source''s own price, 0.50–50.00, for new subscriptions), declines an application, or blocks a source in either mode; the publisher is emailed when something changed (partner_decided). Returns the campaign_partners id.';
revoke execute on function public.decide_partner(p_campaign_id uuid, p_source_id uuid, p_status text, p_price_override numeric) from public;
grant execute on function public.decide_partner(p_campaign_id uuid, p_source_id uuid, p_status text, p_price_override numeric) to authenticated, service_role;

-- === What each side sees ===================================================================================

create function public.campaign_partner_sources(p_campaign_id uuid)
 returns table(source_id uuid, source_name text, platform text, status text, price_override numeric, price numeric, earning numeric, message text, applied_at timestamp with time zone, decided_at timestamp with time zone, may_promote boolean, counted_clicks integer, confirmation_rate numeric, engaged_rate numeric, disputes integer, disputes_upheld integer, paid_subscribers integer)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_live_session();
  if not public.is_admin() and (select auth.role()) is distinct from 'service_role' and not exists (
      select 1 from public.campaigns where id = p_campaign_id and advertiser_id = (select auth.uid())) then
    raise exception 'You can only see the partners of your own newsletters' using errcode = '42501';
  end if;
  return query
  with candidates as (
    select p.source_id as id from public.campaign_partners p where p.campaign_id = p_campaign_id
    union
    select s.audience_source_id from public.campaign_source_stats s where s.campaign_id = p_campaign_id
  )
  select a.id, a.name, a.platform, p.status, p.price_override, private.partner_price(p_campaign_id, a.id),
    private.publisher_earning(private.partner_price(p_campaign_id, a.id)), p.message,
    -- A row the advertiser made by deciding (no application) was created at the decision.
    case when p.decided_at is null or p.created_at < p.decided_at then p.created_at end, p.decided_at,
    private.source_may_promote(p_campaign_id, a.id),
    a.quality_counted_clicks, a.quality_confirmation_rate,
    -- Of its subscribers delivered into email tools that report engagement (any newsletter) and read back, the %
    -- who opened or clicked; null below 5 read back.
    (select case when count(*) filter (where d.engagement_checked_at is not null) >= 5
       then round(count(*) filter (where d.engaged) * 100.0 / count(*) filter (where d.engagement_checked_at is not null), 1) end
     from public.esp_deliveries d
     join public.esp_connections ec on ec.id = d.connection_id
     join public.newsletter_subscriptions n on n.id = d.subscription_id
     where n.audience_source_id = a.id and d.status = 'delivered' and private.esp_reports_engagement(ec.provider))::numeric(5, 1),
    (select count(*)::integer from public.disputes d where d.audience_source_id = a.id),
    (select count(*)::integer from public.disputes d where d.audience_source_id = a.id and d.status = 'upheld'),
    coalesce((select st.total_conversions from public.campaign_source_stats st
              where st.campaign_id = p_campaign_id and st.audience_source_id = a.id), 0)::integer
  from candidates x
  join public.audience_sources a on a.id = x.id
  left join public.campaign_partners p on p.campaign_id = p_campaign_id and p.source_id = a.id
  order by p.status = 'applied' desc nulls last, p.created_at desc nulls last, a.name, a.id;
end
$function$;
comment on function public.campaign_partner_sources(p_campaign_id uuid) is 'The newsletter''s advertiser (or an admin): every source that applied, was decided about or brought it traffic, applications first, with its standing, price (its own or the newsletter''s) and what its publisher earns, whether it may promote, its 30-day quality as the directory shows it (counted clicks, confirmation rate), its engaged rate in the email tools that report it (null below 5 subscribers read back), the disputes about it (all, upheld) and the paid subscribers it brought this newsletter.';
revoke execute on function public.campaign_partner_sources(p_campaign_id uuid) from public;
grant execute on function public.campaign_partner_sources(p_campaign_id uuid) to authenticated, service_role;

create function public.publisher_partnerships()
 returns table(campaign_id uuid, campaign_name text, source_id uuid, source_name text, partner_mode text, status text, price numeric, earning numeric, own_price boolean, message text, decided_at timestamp with time zone, may_promote boolean, unpaid_readers integer)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select c.id, c.name, a.id, a.name, c.partner_mode, p.status, private.partner_price(c.id, a.id),
    private.publisher_earning(private.partner_price(c.id, a.id)),
    coalesce(p.status = 'approved' and p.price_override is not null, false), p.message, p.decided_at,
    private.source_may_promote(c.id, a.id),
    -- Readers who confirmed through the source's link in the last 30 days and were not paid for this reason.
    (select count(*)::integer from public.newsletter_subscriptions n
     where n.audience_source_id = a.id and n.campaign_id = c.id and n.not_counted_reason = 'not_a_partner'
       and n.confirmed_at > now() - interval '30 days')
  from public.audience_sources a
  cross join public.campaigns c
  left join public.campaign_partners p on p.campaign_id = c.id and p.source_id = a.id
  where a.publisher_id = (select auth.uid())
    and c.status = 'active' and not public.account_is_suspended(c.advertiser_id)
    and (c.partner_mode = 'approval' or p.id is not null)
  order by c.id, a.id
$function$;
comment on function public.publisher_partnerships() is 'The signed-in publisher: for each of its sources and each active newsletter by approval (or that decided about the source), its standing (null: not applied), the price its subscribers pay (its own or the newsletter''s) and what it earns, whether the source may promote it (else readers through it are not paid: not_a_partner), and how many readers of the last 30 days were not paid for that reason.';
revoke execute on function public.publisher_partnerships() from public;
grant execute on function public.publisher_partnerships() to authenticated, service_role;

-- === Emails ================================================================================================

-- Every template so far (20260512000100 added dispute_opened and account_suspended) and the two of this migration.
alter table public.notification_queue drop constraint notification_queue_template_check;
alter table public.notification_queue add constraint notification_queue_template_check check (template = any (array[
  'source_reviewed', 'campaign_reviewed', 'low_balance', 'payout_paid', 'payout_failed', 'payout_reversed',
  'dispute_decided', 'deposit_receipt', 'revision_decided', 'dispute_opened', 'account_suspended',
  'partner_applied', 'partner_decided']));

-- === The rule ==============================================================================================

create or replace function private.paid_subscriber_refusal(s public.newsletter_subscriptions, p_confirming boolean)
 returns text
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  src public.audience_sources;
  c public.campaigns;
  reader_domain text := public.email_domain(s.email_canonical);
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
  -- Partner programs: a blocked source, or a source the advertiser has not approved for a newsletter by approval.
  if not private.source_may_promote(c.id, src.id) then
    return 'not_a_partner';
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
    -- One email domain (not webmail) brings at most 3 paid readers a day through one source: a company's colleagues
    -- count, a catch-all's scripted inboxes do not. A reader already paid through the source today takes no new place.
    if not private.is_freemail_domain(reader_domain) and (
        select count(distinct o.email_canonical) from public.newsletter_subscriptions o
        where o.audience_source_id = s.audience_source_id and o.counted
          and public.email_domain(o.email_canonical) = reader_domain
          and o.confirmed_at > now() - interval '24 hours'
          and o.email_canonical <> s.email_canonical) >= 3 then
      return 'domain_velocity';
    end if;
    if clock_timestamp() - s.armed_at < interval '2 seconds' then
      return 'too_fast_confirmation';
    end if;
  end if;
  return null;
end
$function$;

create or replace function public.create_pending_subscriptions(p_email text, p_campaign_ids uuid[], p_token_hashes text[], p_audience_source_id uuid default null::uuid, p_click_id uuid default null::uuid, p_ip text default null::text, p_user_agent text default null::text)
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
  v_price numeric(12, 2);
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
    -- The price is the source's own (an approved partner's price_override) or the newsletter's.
    if v_source_id is not null and private.paid_subscriber_refusal(s, false) is null then
      if c.budget_total - c.budget_spent - c.budget_reserved < c.price_per_subscriber
         or private.wallet_available(c.advertiser_id) < c.price_per_subscriber then
        raise exception 'This newsletter is not accepting subscribers' using errcode = '22023';
      end if;
      v_price := private.partner_price(c.id, v_source_id);
      -- A partner's own price above what is left is not promised: the reader subscribes, unpaid (budget_exhausted).
      if c.budget_total - c.budget_spent - c.budget_reserved >= v_price
         and private.wallet_available(c.advertiser_id) >= v_price then
        update public.newsletter_subscriptions set price = v_price, reserved_amount = v_price
          where id = s.id;
        update public.campaigns set budget_reserved = budget_reserved + v_price,
          reservations_open = reservations_open + 1
          where id = c.id;
        perform private.refresh_campaign_funding(c.advertiser_id);
      end if;
    end if;
    result := 'pending';
    return next;
  end loop;
end
$function$;

comment on function public.create_pending_subscriptions(p_email text, p_campaign_ids uuid[], p_token_hashes text[], p_audience_source_id uuid, p_click_id uuid, p_ip text, p_user_agent text) is 'subscribe edge function, service role only: one pending row per campaign (new, or re-armed when expired or unsubscribed; a live pending one only gets a new token and keeps its attribution). Reserves the locked price — an approved partner''s own price, else the newsletter''s — when the subscriber would be paid for. result: pending | already_confirmed | rejected. All or nothing.';
