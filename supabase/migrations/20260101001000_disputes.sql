-- Baseline, disputes: advertisers' disputes of subscribers and admins' decisions.
--
-- One of the 13 files that replaced the 38 migrations of January 2026 (none had been applied to a hosted
-- database; docs/decisions.md), rendered from the schema they built with the changes listed in
-- supabase/tests/helpers/squash-changes.ts; supabase/tests/schema.test.ts proves everything else equal. The
-- history goes on in new migrations after these; the current state is read in supabase/schemas/.

-- === Tables ==============================================================================================

create table public.disputes (
  id uuid default gen_random_uuid() not null,
  advertiser_id uuid not null,
  publisher_id uuid not null,
  audience_source_id uuid not null,
  kind text not null,
  reason text not null,
  status text default 'open'::text not null,
  decision_note text,
  decided_by uuid,
  decided_at timestamp with time zone,
  refunded numeric(12,2) default 0 not null,
  refunded_subscribers integer default 0 not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint disputes_pkey primary key (id),
  constraint disputes_decision_note_check check ((char_length(decision_note) <= 2000)),
  constraint disputes_kind_check check ((kind = any (array['subscribers'::text, 'source'::text]))),
  constraint disputes_reason_check check (((char_length(reason) >= 10) and (char_length(reason) <= 2000))),
  constraint disputes_status_check check ((status = any (array['open'::text, 'upheld'::text, 'rejected'::text]))),
  constraint disputes_advertiser_id_fkey foreign key (advertiser_id) references public.profiles(id) on delete cascade,
  constraint disputes_audience_source_id_fkey foreign key (audience_source_id) references public.audience_sources(id) on delete cascade,
  constraint disputes_decided_by_fkey foreign key (decided_by) references public.profiles(id) on delete set null,
  constraint disputes_publisher_id_fkey foreign key (publisher_id) references public.profiles(id) on delete cascade
);
alter table public.disputes enable row level security;
create index disputes_advertiser_idx on public.disputes using btree (advertiser_id, created_at desc);
create index disputes_decided_by_idx on public.disputes using btree (decided_by) where (decided_by is not null);
create index disputes_publisher_idx on public.disputes using btree (publisher_id, created_at desc);
create index disputes_source_idx on public.disputes using btree (audience_source_id);
create index disputes_status_idx on public.disputes using btree (status, created_at);
comment on table public.disputes is 'An advertiser''s complaint about subscribers of one source (or the whole source): open until an admin upholds (refund) or rejects it.';
revoke insert, update, delete, truncate, references, trigger on table public.disputes from anon, authenticated;
revoke truncate, references, trigger on table public.disputes from service_role;

create table public.dispute_subscriptions (
  dispute_id uuid not null,
  subscription_id uuid not null,
  campaign_id uuid not null,
  refunded boolean default false not null,
  constraint dispute_subscriptions_pkey primary key (dispute_id, subscription_id),
  constraint dispute_subscriptions_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete cascade,
  constraint dispute_subscriptions_dispute_id_fkey foreign key (dispute_id) references public.disputes(id) on delete cascade,
  constraint dispute_subscriptions_subscription_id_fkey foreign key (subscription_id) references public.newsletter_subscriptions(id) on delete cascade
);
alter table public.dispute_subscriptions enable row level security;
create index dispute_subscriptions_campaign_idx on public.dispute_subscriptions using btree (campaign_id);
create index dispute_subscriptions_subscription_idx on public.dispute_subscriptions using btree (subscription_id);
comment on table public.dispute_subscriptions is 'The subscribers a dispute is about (for a source dispute, its subscribers in screening when it was opened).';
revoke insert, update, delete, truncate, references, trigger on table public.dispute_subscriptions from anon, authenticated;
revoke truncate, references, trigger on table public.dispute_subscriptions from service_role;

-- === Functions ===========================================================================================

create function public.admin_dispute_evidence(p_dispute_id uuid)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  d public.disputes;
  out jsonb;
begin
  perform private.require_admin();
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
$function$;
comment on function public.admin_dispute_evidence(p_dispute_id uuid) is 'Admins: the evidence of a dispute — subscriptions and clicks of the source by reason, confirmation timings, repeated visitors, canonical-email collisions, the flagged subscribers.';
revoke execute on function public.admin_dispute_evidence(p_dispute_id uuid) from anon, public;

create function public.decide_dispute(p_dispute_id uuid, p_decision text, p_note text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
  perform private.require_admin();
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
    perform private.lock_wallet(d.advertiser_id);
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
  perform private.log_moderation_event('dispute', d.id, 'open', p_decision,
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
$function$;
comment on function public.decide_dispute(p_dispute_id uuid, p_decision text, p_note text) is 'Admins (at aal2) uphold a dispute — refunding its subscribers still in screening through refund_subscription — or reject it, with a note both sides are emailed.';
revoke execute on function public.decide_dispute(p_dispute_id uuid, p_decision text, p_note text) from anon, public;

create function public.disputable_subscribers(p_source_id uuid default null::uuid)
 returns table(id uuid, email text, confirmed_at timestamp with time zone, campaign_id uuid, campaign_name text, source_id uuid, source_name text, price numeric, in_dispute boolean)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select n.id, n.email::text, n.confirmed_at, c.id, c.name, s.id, s.name, n.price,
         exists (select 1 from public.dispute_subscriptions ds join public.disputes d on d.id = ds.dispute_id
                 where ds.subscription_id = n.id and d.status = 'open')
  from public.newsletter_subscriptions n
  join public.campaigns c on c.id = n.campaign_id
  join public.audience_sources s on s.id = n.audience_source_id
  where c.advertiser_id = (select auth.uid())
    and (p_source_id is null or n.audience_source_id = p_source_id)
    and exists (select 1 from public.wallet_transactions t
                where t.subscription_id = n.id and t.type = 'hold' and t.status = 'pending')
  order by n.confirmed_at desc
  limit 500
$function$;
comment on function public.disputable_subscribers(p_source_id uuid) is 'The signed-in advertiser''s charged subscribers still in screening (what open_dispute accepts), newest first.';
revoke execute on function public.disputable_subscribers(p_source_id uuid) from anon, public;

create function private.mark_refunded_subscription()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  if old.counted and not new.counted and new.not_counted_reason is null and new.status <> 'pending' then
    new.not_counted_reason := 'refunded';
  end if;
  return new;
end
$function$;
comment on function private.mark_refunded_subscription() is 'Internal trigger: a counted subscriber that stops counting (not by re-subscribing) is refunded.';
revoke execute on function private.mark_refunded_subscription() from public;

create function public.open_dispute(p_reason text, p_subscription_ids uuid[] default null::uuid[], p_source_id uuid default null::uuid)
 returns uuid
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
comment on function public.open_dispute(p_reason text, p_subscription_ids uuid[], p_source_id uuid) is 'Advertisers (at aal2 with a factor) flag subscribers of one source still in screening, or a whole source, with a reason; returns the dispute id.';
revoke execute on function public.open_dispute(p_reason text, p_subscription_ids uuid[], p_source_id uuid) from anon, public;

-- === Triggers ============================================================================================

create trigger disputes_immutable before update on public.disputes for each row execute function public.forbid_column_changes('advertiser_id', 'publisher_id', 'audience_source_id', 'kind', 'reason');

create trigger disputes_set_updated_at before update on public.disputes for each row execute function public.set_updated_at();

create trigger newsletter_subscriptions_mark_refunded before update on public.newsletter_subscriptions for each row execute function private.mark_refunded_subscription();

-- === Row-level security policies =========================================================================

create policy "Admins can read the subscribers of every dispute" on public.dispute_subscriptions
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Advertisers can read the subscribers of their own disputes" on public.dispute_subscriptions
  for select to authenticated
  using ((exists ( select 1
   from public.disputes d
  where ((d.id = dispute_subscriptions.dispute_id) and (d.advertiser_id = ( select auth.uid() as uid))))));

create policy "Admins can read every dispute" on public.disputes
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Advertisers can read their own disputes" on public.disputes
  for select to authenticated
  using ((( select auth.uid() as uid) = advertiser_id));
create policy "Publishers can read disputes about their sources" on public.disputes
  for select to authenticated
  using ((( select auth.uid() as uid) = publisher_id));
