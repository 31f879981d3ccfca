-- Disputes (PRODUCT "Admin dashboard", ARCHITECTURE fixed interface): an advertiser flags subscribers still in
-- screening, or a whole source, with a reason; an admin reads the evidence the database computes and upholds
-- the dispute (the subscribers still in screening are refunded through refund_subscription, in the ledger) or
-- rejects it. Both sides are emailed and see the outcome; every decision is in the audit log.

create table public.disputes (
  id uuid primary key default gen_random_uuid(),
  advertiser_id uuid not null references public.profiles (id) on delete cascade,
  publisher_id uuid not null references public.profiles (id) on delete cascade,
  audience_source_id uuid not null references public.audience_sources (id) on delete cascade,
  kind text not null check (kind in ('subscribers', 'source')),
  reason text not null check (char_length(reason) between 10 and 2000),
  status text not null default 'open' check (status in ('open', 'upheld', 'rejected')),
  decision_note text check (char_length(decision_note) <= 2000),
  decided_by uuid references public.profiles (id) on delete set null,
  decided_at timestamptz,
  refunded numeric(12, 2) not null default 0,
  refunded_subscribers integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.disputes is
  'An advertiser''s complaint about subscribers of one source (or the whole source): open until an admin upholds (refund) or rejects it.';
create index disputes_advertiser_idx on public.disputes (advertiser_id, created_at desc);
create index disputes_publisher_idx on public.disputes (publisher_id, created_at desc);
create index disputes_source_idx on public.disputes (audience_source_id);
create index disputes_status_idx on public.disputes (status, created_at);
create index disputes_decided_by_idx on public.disputes (decided_by) where decided_by is not null;

create table public.dispute_subscriptions (
  dispute_id uuid not null references public.disputes (id) on delete cascade,
  subscription_id uuid not null references public.newsletter_subscriptions (id) on delete cascade,
  campaign_id uuid not null references public.campaigns (id) on delete cascade,
  refunded boolean not null default false,
  primary key (dispute_id, subscription_id)
);
comment on table public.dispute_subscriptions is
  'The subscribers a dispute is about (for a source dispute, its subscribers in screening when it was opened).';
create index dispute_subscriptions_subscription_idx on public.dispute_subscriptions (subscription_id);
create index dispute_subscriptions_campaign_idx on public.dispute_subscriptions (campaign_id);

alter table public.disputes enable row level security;
alter table public.dispute_subscriptions enable row level security;

create policy "Advertisers can read their own disputes"
  on public.disputes for select to authenticated
  using ((select auth.uid()) = advertiser_id);
create policy "Publishers can read disputes about their sources"
  on public.disputes for select to authenticated
  using ((select auth.uid()) = publisher_id);
create policy "Admins can read every dispute"
  on public.disputes for select to authenticated
  using ((select public.is_admin()));
-- Which subscribers: the advertiser and admins; publishers see only counts (no subscriber is theirs to see).
create policy "Advertisers can read the subscribers of their own disputes"
  on public.dispute_subscriptions for select to authenticated
  using (exists (select 1 from public.disputes d where d.id = dispute_id and d.advertiser_id = (select auth.uid())));
create policy "Admins can read the subscribers of every dispute"
  on public.dispute_subscriptions for select to authenticated
  using ((select public.is_admin()));

create trigger disputes_set_updated_at before update on public.disputes
  for each row execute function public.set_updated_at();
create trigger disputes_immutable before update on public.disputes
  for each row execute function public.forbid_column_changes('advertiser_id', 'publisher_id', 'audience_source_id', 'kind', 'reason');

alter table public.moderation_events drop constraint moderation_events_subject_type_check;
alter table public.moderation_events add constraint moderation_events_subject_type_check
  check (subject_type in ('audience_source', 'campaign', 'profile', 'subscription', 'payout_request', 'dispute'));

-- Still refundable: counted and its hold still pending (screening not over, not refunded yet).
create function private.in_screening(p_subscription_id uuid)
returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.wallet_transactions t
                 where t.subscription_id = p_subscription_id and t.type = 'hold' and t.status = 'pending')
$$;
comment on function private.in_screening(uuid) is 'Internal: whether a charged subscriber is still in screening (its hold pending), so a dispute can refund it.';
revoke execute on function private.in_screening(uuid) from public, anon, authenticated, service_role;

create function public.open_dispute(p_reason text, p_subscription_ids uuid[] default null, p_source_id uuid default null)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  why text := nullif(trim(p_reason), '');
  ids uuid[] := (select array_agg(distinct x) from unnest(coalesce(p_subscription_ids, '{}'::uuid[])) x where x is not null);
  src public.audience_sources;
  source_ids uuid[];
  new_id uuid;
begin
  perform private.require_aal2();
  if not exists (select 1 from public.profiles where id = me and user_type = 'advertiser') then
    raise exception 'Only advertisers can open disputes' using errcode = '42501';
  end if;
  if why is null or char_length(why) < 10 then
    raise exception 'Describe the problem in at least 10 characters' using errcode = '22023';
  end if;
  if char_length(why) > 2000 then
    raise exception 'Keep the description under 2,000 characters' using errcode = '22023';
  end if;
  if (ids is null) = (p_source_id is null) then
    raise exception 'Flag either subscribers or a source' using errcode = '22023';
  end if;

  if ids is not null then
    if cardinality(ids) > 500 then
      raise exception 'Flag at most 500 subscribers at a time' using errcode = '22023';
    end if;
    -- Every flagged subscriber: on one of my campaigns, charged, still in screening.
    if exists (
      select 1 from unnest(ids) x
      left join public.newsletter_subscriptions s on s.id = x
      left join public.campaigns c on c.id = s.campaign_id
      where s.id is null or c.advertiser_id is distinct from me
    ) then
      raise exception 'You can only flag subscribers of your own newsletters' using errcode = '42501';
    end if;
    if exists (select 1 from unnest(ids) x where not private.in_screening(x)) then
      raise exception 'You can only flag charged subscribers during their 7-day screening' using errcode = '22023';
    end if;
    select array_agg(distinct s.audience_source_id) into source_ids
    from public.newsletter_subscriptions s where s.id = any (ids);
    if cardinality(source_ids) <> 1 then
      raise exception 'Flag the subscribers of one source at a time' using errcode = '22023';
    end if;
    select * into src from public.audience_sources where id = source_ids[1];
  else
    select * into src from public.audience_sources where id = p_source_id;
    if not found or not exists (
      select 1 from public.newsletter_subscriptions s join public.campaigns c on c.id = s.campaign_id
      where s.audience_source_id = p_source_id and c.advertiser_id = me and (s.counted or s.price is not null)
    ) then
      raise exception 'This source brought you no paid subscribers' using errcode = '22023';
    end if;
    select array_agg(s.id) into ids
    from public.newsletter_subscriptions s join public.campaigns c on c.id = s.campaign_id
    where s.audience_source_id = p_source_id and c.advertiser_id = me and private.in_screening(s.id);
  end if;

  if exists (
    select 1 from public.dispute_subscriptions ds join public.disputes d on d.id = ds.dispute_id
    where d.status = 'open' and ds.subscription_id = any (coalesce(ids, '{}'::uuid[]))
  ) or exists (
    select 1 from public.disputes d
    where d.status = 'open' and d.kind = 'source' and d.audience_source_id = src.id and d.advertiser_id = me
  ) then
    raise exception 'These subscribers are already in an open dispute' using errcode = '22023';
  end if;

  insert into public.disputes (advertiser_id, publisher_id, audience_source_id, kind, reason)
  values (me, src.publisher_id, src.id, case when p_source_id is null then 'subscribers' else 'source' end, why)
  returning id into new_id;
  insert into public.dispute_subscriptions (dispute_id, subscription_id, campaign_id)
  select new_id, s.id, s.campaign_id from public.newsletter_subscriptions s where s.id = any (coalesce(ids, '{}'::uuid[]));
  return new_id;
end
$$;
comment on function public.open_dispute(text, uuid[], uuid) is
  'Advertisers (at aal2 with a factor) flag subscribers of one source still in screening, or a whole source, with a reason; returns the dispute id.';
revoke execute on function public.open_dispute(text, uuid[], uuid) from public, anon, authenticated;
grant execute on function public.open_dispute(text, uuid[], uuid) to authenticated;

create function public.decide_dispute(p_dispute_id uuid, p_decision text, p_note text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  d public.disputes;
  note text := nullif(trim(p_note), '');
  sub record;
  result jsonb;
  total numeric(12, 2) := 0;
  n integer := 0;
  campaign_names text;
  source_name text;
begin
  perform public.require_admin();
  if p_decision is null or p_decision not in ('upheld', 'rejected') then
    raise exception 'Decide upheld or rejected' using errcode = '22023';
  end if;
  if note is null then
    raise exception 'Explain the decision: both sides read the note' using errcode = '22023';
  end if;
  select * into d from public.disputes where id = p_dispute_id for update;
  if not found then
    raise exception 'Dispute not found' using errcode = 'P0002';
  end if;
  if d.status <> 'open' then
    raise exception 'This dispute was already decided' using errcode = '22023';
  end if;
  if p_decision = 'upheld' then
    -- Lock order of the ledger: the advertiser's wallet first, then each subscriber's rows.
    perform public.lock_wallet(d.advertiser_id);
    for sub in
      select ds.subscription_id from public.dispute_subscriptions ds
      where ds.dispute_id = d.id and private.in_screening(ds.subscription_id)
      order by ds.subscription_id
    loop
      result := public.refund_subscription(sub.subscription_id, 'Dispute upheld: ' || note);
      total := total + coalesce((result ->> 'refunded')::numeric, 0);
      n := n + 1;
      update public.dispute_subscriptions set refunded = true
      where dispute_id = d.id and subscription_id = sub.subscription_id;
    end loop;
  end if;
  update public.disputes set status = p_decision, decision_note = note, decided_by = (select auth.uid()),
    decided_at = now(), refunded = total, refunded_subscribers = n
  where id = d.id;
  perform public.log_moderation_event('dispute', d.id, 'open', p_decision,
    note || case when p_decision = 'upheld' then ' (refunded ' || to_char(total, 'FM999999990.00') || ' credits for ' || n || ' subscribers)' else '' end);

  select string_agg(distinct c.name, ', ') into campaign_names
  from public.dispute_subscriptions ds join public.campaigns c on c.id = ds.campaign_id where ds.dispute_id = d.id;
  select s.name into source_name from public.audience_sources s where s.id = d.audience_source_id;
  perform private.enqueue_notification(d.advertiser_id, 'dispute_decided',
    jsonb_build_object('side', 'advertiser', 'decision', p_decision, 'note', note, 'refunded', total, 'subscribers', n,
                       'campaign_name', coalesce(campaign_names, 'your newsletter'), 'source_name', source_name),
    'dispute_decided:' || d.id || ':advertiser');
  perform private.enqueue_notification(d.publisher_id, 'dispute_decided',
    jsonb_build_object('side', 'publisher', 'decision', p_decision, 'note', note, 'refunded', total, 'subscribers', n,
                       'campaign_name', coalesce(campaign_names, 'a newsletter'), 'source_name', source_name),
    'dispute_decided:' || d.id || ':publisher');
  return jsonb_build_object('id', d.id, 'status', p_decision, 'refunded', total, 'refunded_subscribers', n);
end
$$;
comment on function public.decide_dispute(uuid, text, text) is
  'Admins (at aal2) uphold a dispute — refunding its subscribers still in screening through refund_subscription — or reject it, with a note both sides are emailed.';
revoke execute on function public.decide_dispute(uuid, text, text) from public, anon, authenticated;
grant execute on function public.decide_dispute(uuid, text, text) to authenticated;

-- What the admin weighs (PRODUCT: counts by reason, click-to-confirm timings, repeated visitors,
-- canonical-email collisions), computed here over every row, never in the browser.
create function public.admin_dispute_evidence(p_dispute_id uuid)
returns jsonb
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  d public.disputes;
  out jsonb;
begin
  perform public.require_admin();
  select * into d from public.disputes where id = p_dispute_id;
  if not found then
    raise exception 'Dispute not found' using errcode = 'P0002';
  end if;
  with mine as (
    -- Every subscription this source brought to this advertiser's campaigns.
    select s.*, lc.visitor_hash as click_visitor, lc.created_at as clicked_at,
           exists (select 1 from public.dispute_subscriptions ds where ds.dispute_id = d.id and ds.subscription_id = s.id) as disputed
    from public.newsletter_subscriptions s
    join public.campaigns c on c.id = s.campaign_id
    left join public.link_clicks lc on lc.id = s.click_id
    where s.audience_source_id = d.audience_source_id and c.advertiser_id = d.advertiser_id
  ), flagged as (
    select * from mine where disputed
  )
  select jsonb_build_object(
    'subscriptions_by_reason', coalesce((
      select jsonb_agg(jsonb_build_object('reason', coalesce(not_counted_reason, case when counted then 'counted' else status end), 'count', n) order by n desc)
      from (select not_counted_reason, counted, status, count(*) as n from mine group by 1, 2, 3) r), '[]'::jsonb),
    'clicks_by_reason', coalesce((
      select jsonb_agg(jsonb_build_object('reason', coalesce(not_counted_reason, 'counted'), 'count', n) order by n desc)
      from (select lc.not_counted_reason, count(*) as n from public.link_clicks lc
            where lc.audience_source_id = d.audience_source_id group by 1) r), '[]'::jsonb),
    'timings', jsonb_build_object(
      'flagged', (select count(*) from flagged),
      'median_click_to_confirm_seconds', (select percentile_cont(0.5) within group (order by extract(epoch from confirmed_at - clicked_at)) from flagged where clicked_at is not null and confirmed_at is not null),
      'median_email_to_confirm_seconds', (select percentile_cont(0.5) within group (order by extract(epoch from confirmed_at - armed_at)) from flagged where confirmed_at is not null),
      'under_10_seconds', (select count(*) from flagged where confirmed_at - armed_at < interval '10 seconds'),
      'source_median_click_to_confirm_seconds', (select percentile_cont(0.5) within group (order by extract(epoch from confirmed_at - clicked_at)) from mine where clicked_at is not null and confirmed_at is not null)
    ),
    'repeated_visitors', coalesce((
      select jsonb_agg(jsonb_build_object('visitor', left(click_visitor, 12), 'subscriptions', n) order by n desc)
      from (select click_visitor, count(*) as n from mine where click_visitor is not null group by 1 having count(*) > 1 limit 20) r), '[]'::jsonb),
    'email_collisions', coalesce((
      select jsonb_agg(jsonb_build_object('canonical_email', e, 'subscriptions', n) order by n desc)
      from (select m.email_canonical as e, count(*) as n from public.newsletter_subscriptions m
            where m.email_canonical in (select f.email_canonical from flagged f)
            group by 1 having count(*) > 1 limit 20) r), '[]'::jsonb),
    'subscribers', coalesce((
      select jsonb_agg(jsonb_build_object('id', f.id, 'email', f.email, 'campaign_id', f.campaign_id, 'status', f.status,
        'confirmed_at', f.confirmed_at, 'click_to_confirm_seconds', round(extract(epoch from f.confirmed_at - f.clicked_at)),
        'email_to_confirm_seconds', round(extract(epoch from f.confirmed_at - f.armed_at)),
        'in_screening', private.in_screening(f.id)) order by f.confirmed_at)
      from (select * from flagged limit 200) f), '[]'::jsonb)
  ) into out;
  return out;
end
$$;
comment on function public.admin_dispute_evidence(uuid) is
  'Admins: the evidence of a dispute — subscriptions and clicks of the source by reason, confirmation timings, repeated visitors, canonical-email collisions, the flagged subscribers.';
revoke execute on function public.admin_dispute_evidence(uuid) from public, anon, authenticated;
grant execute on function public.admin_dispute_evidence(uuid) to authenticated;
