-- one word, one number: a source's clicks are its counted clicks (never a sum over campaign pairs); the
-- advertiser's week counts confirmed subscribers (everyone who confirmed) and paid subscribers (charged) under
-- their own names; a dispute's outcome in each side's own money (the publisher's cancelled earning).

create or replace function public.publisher_figures(p_group text, p_from date default null::date, p_to date default null::date)
 returns table(id uuid, name text, views bigint, clicks bigint, conversions bigint, ctr numeric, earnings numeric)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  if p_group is null or p_group not in ('source', 'campaign') then
    raise exception 'Group figures by source or by campaign' using errcode = '22023';
  end if;
  if p_group = 'source' then
    -- A source's clicks are its counted clicks (source_figures), whichever newsletters the visitors opened.
    return query
    select sf.source_id, sf.source_name, coalesce(p.views, 0)::bigint, sf.counted_clicks,
      coalesce(p.conversions, 0)::bigint,
      (case when sf.counted_clicks > 0 then round(coalesce(p.conversions, 0) * 100.0 / sf.counted_clicks, 2) else 0 end)::numeric(7, 2),
      coalesce(p.earnings, 0)::numeric(12, 2)
    from public.source_figures(null, p_from, p_to) sf
    left join (
      select f.source_id, sum(f.views) views, sum(f.conversions) conversions, sum(f.earnings) earnings
      from public.campaign_source_figures(null, null, p_from, p_to) f
      group by f.source_id
    ) p on p.source_id = sf.source_id
    where sf.counted_clicks > 0 or p.source_id is not null
    order by 5 desc, 4 desc, 2;
    return;
  end if;
  return query
  select f.campaign_id, min(f.campaign_name),
    sum(f.views)::bigint, sum(f.clicks)::bigint, sum(f.conversions)::bigint,
    (case when sum(f.clicks) > 0 then round(sum(f.conversions) * 100.0 / sum(f.clicks), 2) else 0 end)::numeric(7, 2),
    sum(f.earnings)::numeric(12, 2)
  from public.campaign_source_figures(null, null, p_from, p_to) f
  join public.audience_sources s on s.id = f.source_id
  where s.publisher_id = (select auth.uid())
  group by f.campaign_id
  order by 5 desc, 4 desc, 2;
end
$function$;
comment on function public.publisher_figures(p_group text, p_from date, p_to date) is 'The signed-in publisher''s figures per source (clicks = the source''s counted clicks, as source_figures counts them; views, paid subscribers and earnings summed over its campaigns) or per campaign (the (campaign, source) pairs of their sources summed: counted clicks that opened that campaign).';

create or replace function public.campaign_week_figures(p_now timestamp with time zone default now())
 returns table(campaign_id uuid, confirmed_subscribers bigint, paid_subscribers bigint)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_live_session();
  return query
  select c.id,
    count(n.id) filter (where n.status = 'confirmed'),
    count(n.id) filter (where n.counted and n.status = 'confirmed')
  from public.campaigns c
  left join public.newsletter_subscriptions n
    on n.campaign_id = c.id and n.confirmed_at > p_now - interval '7 days' and n.confirmed_at <= p_now
  where c.advertiser_id = (select auth.uid())
  group by c.id;
end
$function$;
comment on function public.campaign_week_figures(p_now timestamp with time zone) is 'The signed-in advertiser''s campaigns over the last 7 days: confirmed subscribers (everyone who confirmed, paid or free) and paid subscribers (confirmed and charged), the overview''s two figures.';
revoke execute on function public.campaign_week_figures(p_now timestamp with time zone) from anon, public;

alter table public.disputes add column earnings_cancelled numeric(12, 2) default 0 not null;
comment on column public.disputes.earnings_cancelled is 'What the publisher lost when the dispute was upheld: the pending earnings cancelled (the advertiser''s refund minus the platform fee), the publisher''s side of refunded.';

create or replace function public.decide_dispute(p_dispute_id uuid, p_decision text, p_note text)
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
  lost numeric(12, 2) := 0;
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
      -- The publisher's side: the pending earning this refund cancels.
      lost := lost + coalesce((select sum(t.amount) from public.wallet_transactions t
        where t.subscription_id = sub.subscription_id and t.type = 'earning' and t.status = 'pending'), 0);
      result := public.refund_subscription(sub.subscription_id, 'Dispute upheld: ' || note);
      total := total + coalesce((result ->> 'refunded')::numeric, 0);
      n := n + 1;
      update public.dispute_subscriptions set refunded = true
      where dispute_id = d.id and subscription_id = sub.subscription_id;
    end loop;
  end if;
  update public.disputes set status = p_decision, decision_note = note, decided_by = (select auth.uid()),
    decided_at = now(), refunded = total, refunded_subscribers = n, earnings_cancelled = lost
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
  -- Each side in its own money: the publisher reads the earnings they lost, not the advertiser's refund.
  perform private.enqueue_notification(d.publisher_id, 'dispute_decided',
    jsonb_build_object('side', 'publisher', 'decision', p_decision, 'note', note, 'refunded', lost, 'subscribers', n,
                       'campaign_name', coalesce(campaign_names, 'a newsletter'), 'source_name', source_name),
    'dispute_decided:' || d.id || ':publisher');
  return jsonb_build_object('id', d.id, 'status', p_decision, 'refunded', total, 'refunded_subscribers', n,
    'earnings_cancelled', lost);
end
$function$;
comment on function public.decide_dispute(p_dispute_id uuid, p_decision text, p_note text) is 'Admins (at aal2) uphold a dispute — refunding its subscribers still in screening through refund_subscription, recording the advertiser''s refund and the publisher''s cancelled earnings — or reject it, with a note both sides are emailed in their own money.';
