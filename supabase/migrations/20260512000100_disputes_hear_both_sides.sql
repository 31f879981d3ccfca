-- Disputes hear both sides (issue 37, PRODUCT "Fair to both sides"): a dispute is a process, not a verdict.
--
-- - The publisher is emailed when a dispute about their source opens (notification `dispute_opened`), sees the
--   readers concerned (never their emails: PRODUCT "publishers never see subscriber emails"), the earnings at stake
--   and the advertiser's reason (publisher_disputes, publisher_dispute_readers), and may answer once, with text and
--   up to 5 https evidence links, within 72 hours of the opening (answer_dispute).
-- - The admin cannot decide before the publisher answered or the 72 hours passed (decide_dispute): the money waits
--   (below), so waiting costs no one anything, and the decision is taken with both sides' words on screen.
-- - Money in dispute is held, never forfeited without a decision: opening a dispute takes the settlement date off
--   the pending hold and earning of each disputed subscriber (private.dispute_frozen_ledger keeps it), so the 7-day
--   screening cannot end in the middle of the process; the decision refunds them (upheld) or gives the dates back
--   (whatever was not refunded settles on the next run once its screening is over).
-- - The decision's emails carry the dispute, so each side is sent to its own dispute page.
-- - A suspended user is told why by email at the moment of the suspension (notification `account_suspended`, from
--   the audit row admin_set_user_suspended writes), with the way to appeal; the sign-in page only says the account is
--   suspended, because nothing readable before sign-in may tell a stranger whether an address has an account.
--
-- The bounds of an answer are supabase/functions/_shared/rules/dispute.ts (pinned by supabase/tests/rule-bounds.test.ts).

-- === The publisher's answer and its deadline ==============================================================

alter table public.disputes
  add column answer_due_at timestamp with time zone,
  add column answer text,
  add column answer_links text[] not null default '{}',
  add column answered_at timestamp with time zone;
update public.disputes set answer_due_at = created_at + interval '72 hours';
alter table public.disputes
  alter column answer_due_at set default now() + interval '72 hours',
  alter column answer_due_at set not null,
  add constraint disputes_answer_check check (char_length(answer) between 20 and 4000),
  add constraint disputes_answer_links_check check (cardinality(answer_links) <= 5),
  add constraint disputes_answered_check check ((answer is null) = (answered_at is null));
comment on column public.disputes.answer_due_at is 'Until when the publisher may answer: 72 hours after the dispute opened. The admin decides after the answer or after this moment.';
comment on column public.disputes.answer is 'The publisher''s side, in their words (answer_dispute; once, before answer_due_at).';
comment on column public.disputes.answer_links is 'The publisher''s evidence: up to 5 https links (where the readers came from: the post, the video, the page).';
comment on column public.disputes.answered_at is 'When the publisher answered; null while they have not.';

-- === Money in dispute waits for the decision ==============================================================

create table private.dispute_frozen_ledger (
  transaction_id uuid primary key references public.wallet_transactions (id) on delete cascade,
  dispute_id uuid not null references public.disputes (id) on delete cascade,
  available_at timestamp with time zone
);
create index dispute_frozen_ledger_dispute_idx on private.dispute_frozen_ledger (dispute_id);
comment on table private.dispute_frozen_ledger is 'The settlement date each pending hold and earning of an open dispute had before the dispute took it off (settle_matured_holds settles only rows with a date that has come); given back by the decision.';

create function private.freeze_dispute_ledger(p_dispute_id uuid)
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  frozen integer;
begin
  insert into private.dispute_frozen_ledger (transaction_id, dispute_id, available_at)
  select t.id, p_dispute_id, t.available_at
  from public.dispute_subscriptions ds
  join public.wallet_transactions t on t.subscription_id = ds.subscription_id
  where ds.dispute_id = p_dispute_id and t.type in ('hold', 'earning') and t.status = 'pending'
  on conflict (transaction_id) do nothing;
  update public.wallet_transactions t set available_at = null
  from private.dispute_frozen_ledger f
  where f.dispute_id = p_dispute_id and t.id = f.transaction_id and t.status = 'pending';
  get diagnostics frozen = row_count;
  return frozen;
end
$function$;
comment on function private.freeze_dispute_ledger(p_dispute_id uuid) is 'Internal (open_dispute): the pending holds and earnings of a dispute''s subscribers stop settling until it is decided; returns how many rows.';
revoke execute on function private.freeze_dispute_ledger(p_dispute_id uuid) from public;

create function private.release_dispute_ledger(p_dispute_id uuid)
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  released integer;
begin
  update public.wallet_transactions t set available_at = f.available_at
  from private.dispute_frozen_ledger f
  where f.dispute_id = p_dispute_id and t.id = f.transaction_id and t.status = 'pending';
  get diagnostics released = row_count;
  delete from private.dispute_frozen_ledger where dispute_id = p_dispute_id;
  return released;
end
$function$;
comment on function private.release_dispute_ledger(p_dispute_id uuid) is 'Internal (decide_dispute): what the decision did not refund gets its settlement date back (a date already past settles on the next run); returns how many rows.';
revoke execute on function private.release_dispute_ledger(p_dispute_id uuid) from public;

-- === What is at stake, computed once ======================================================================

create function private.dispute_stake(p_dispute_id uuid)
 returns table(readers integer, readers_on_hold integer, charged numeric, earnings numeric)
 language sql
 stable security definer
 set search_path to ''
as $function$
  -- Only an open dispute has money at stake; a decided one says what it did (refunded, earnings_cancelled).
  select count(distinct ds.subscription_id)::integer,
    count(distinct t.subscription_id) filter (where t.type = 'hold' and d.status = 'open')::integer,
    coalesce(-sum(t.amount) filter (where t.type = 'hold' and d.status = 'open'), 0)::numeric(12, 2),
    coalesce(sum(t.amount) filter (where t.type = 'earning' and d.status = 'open'), 0)::numeric(12, 2)
  from public.disputes d
  join public.dispute_subscriptions ds on ds.dispute_id = d.id
  left join public.wallet_transactions t
    on t.subscription_id = ds.subscription_id and t.type in ('hold', 'earning') and t.status = 'pending'
  where d.id = p_dispute_id
$function$;
comment on function private.dispute_stake(p_dispute_id uuid) is 'Internal: a dispute''s readers, how many of them are still on hold, the advertiser''s charges on hold for them and the publisher''s pending earnings from them (zero once decided).';
revoke execute on function private.dispute_stake(p_dispute_id uuid) from public;

create function public.dispute_at_stake(p_dispute_id uuid)
 returns table(readers integer, readers_on_hold integer, charged numeric, earnings numeric)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  if not exists (
    select 1 from public.disputes d
    where d.id = p_dispute_id and ((select auth.uid()) in (d.advertiser_id, d.publisher_id) or public.is_admin())
  ) then
    raise exception 'Dispute not found' using errcode = 'P0002';
  end if;
  return query select * from private.dispute_stake(p_dispute_id);
end
$function$;
comment on function public.dispute_at_stake(p_dispute_id uuid) is 'The two sides of a dispute and admins: its readers, how many are still on hold, the charges on hold for them (the advertiser''s side) and the pending earnings from them (the publisher''s side), while it is open.';
revoke execute on function public.dispute_at_stake(p_dispute_id uuid) from public, anon;
grant execute on function public.dispute_at_stake(p_dispute_id uuid) to authenticated, service_role;

-- === The publisher's disputes and readers =================================================================

create function public.publisher_disputes(p_dispute_id uuid default null::uuid)
 returns table(id uuid, kind text, status text, source_id uuid, source_name text, newsletters text, reason text,
   created_at timestamp with time zone, answer_due_at timestamp with time zone, answer text, answer_links text[],
   answered_at timestamp with time zone, can_answer boolean, readers integer, readers_on_hold integer,
   earnings_at_stake numeric, decision_note text, decided_at timestamp with time zone, refunded_subscribers integer,
   earnings_cancelled numeric)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select d.id, d.kind, d.status, s.id, s.name,
    (select string_agg(distinct c.name, ', ') from public.dispute_subscriptions ds
     join public.campaigns c on c.id = ds.campaign_id where ds.dispute_id = d.id),
    d.reason, d.created_at, d.answer_due_at, d.answer, d.answer_links, d.answered_at,
    d.status = 'open' and d.answered_at is null and now() < d.answer_due_at,
    st.readers, st.readers_on_hold, st.earnings, d.decision_note, d.decided_at, d.refunded_subscribers,
    d.earnings_cancelled
  from public.disputes d
  join public.audience_sources s on s.id = d.audience_source_id
  cross join lateral private.dispute_stake(d.id) st
  where d.publisher_id = (select auth.uid()) and (p_dispute_id is null or d.id = p_dispute_id)
  -- What still waits for the publisher's answer first, then the newest.
  order by (d.status = 'open' and d.answered_at is null and now() < d.answer_due_at) desc, d.created_at desc, d.id
  limit 100
$function$;
comment on function public.publisher_disputes(p_dispute_id uuid) is 'The signed-in publisher''s disputes (one, with p_dispute_id): the advertiser''s reason, the newsletters, the readers and the earnings at stake (private.dispute_stake), the deadline and whether they can still answer, their answer, and the outcome. Those still to answer first.';
revoke execute on function public.publisher_disputes(p_dispute_id uuid) from public, anon;
grant execute on function public.publisher_disputes(p_dispute_id uuid) to authenticated, service_role;

create function public.publisher_dispute_readers(p_dispute_id uuid)
 returns table(subscription_id uuid, campaign_name text, confirmed_at timestamp with time zone, earning numeric,
   state text)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select n.id, c.name, n.confirmed_at, private.publisher_earning(n.price),
    case
      when ds.refunded or n.status = 'rejected' then 'refunded'
      when exists (select 1 from public.wallet_transactions t
                   where t.subscription_id = n.id and t.type = 'hold' and t.status = 'pending') and d.status = 'open'
        then 'on_hold'
      else 'kept'
    end
  from public.disputes d
  join public.dispute_subscriptions ds on ds.dispute_id = d.id
  join public.newsletter_subscriptions n on n.id = ds.subscription_id
  join public.campaigns c on c.id = ds.campaign_id
  where d.id = p_dispute_id and d.publisher_id = (select auth.uid())
  order by n.confirmed_at, n.id
  limit 500
$function$;
comment on function public.publisher_dispute_readers(p_dispute_id uuid) is 'The readers a dispute about the signed-in publisher''s source is about: newsletter, confirmed at, what the publisher earns from them, and on_hold (waiting for the decision), refunded or kept. Never the reader''s email or address.';
revoke execute on function public.publisher_dispute_readers(p_dispute_id uuid) from public, anon;
grant execute on function public.publisher_dispute_readers(p_dispute_id uuid) to authenticated, service_role;

create function public.answer_dispute(p_dispute_id uuid, p_text text, p_links text[] default null::text[])
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  d public.disputes;
  words text := trim(p_text);
  -- The links as given, blank lines and repeats left out, in their order.
  links text[] := (
    select coalesce(array_agg(link order by pos), '{}') from (
      select trim(l) as link, min(i) as pos from unnest(coalesce(p_links, '{}'::text[])) with ordinality u (l, i)
      where nullif(trim(l), '') is not null group by 1) given
  );
begin
  perform private.require_aal2();
  select * into d from public.disputes where id = p_dispute_id for update;
  if not found or d.publisher_id is distinct from (select auth.uid()) then
    raise exception 'Only the publisher of the disputed source can answer this dispute' using errcode = '42501';
  end if;
  if d.status <> 'open' then
    raise exception 'This dispute was already decided, so it can no longer be answered' using errcode = '22023';
  end if;
  if d.answered_at is not null then
    raise exception 'You already answered this dispute; the admin reads your answer as you sent it'
      using errcode = '22023';
  end if;
  if now() >= d.answer_due_at then
    raise exception 'The 72 hours to answer this dispute are over; an admin decides with what is on file'
      using errcode = '22023';
  end if;
  if words is null or char_length(words) < 20 then
    raise exception 'Write your answer in at least 20 characters' using errcode = '22023';
  end if;
  if char_length(words) > 4000 then
    raise exception 'Keep your answer under 4,000 characters' using errcode = '22023';
  end if;
  if cardinality(links) > 5 then
    raise exception 'Add at most 5 evidence links' using errcode = '22023';
  end if;
  if exists (select 1 from unnest(links) l where char_length(l) > 500) then
    raise exception 'Keep each evidence link under 500 characters' using errcode = '22023';
  end if;
  if exists (select 1 from unnest(links) l where l !~ '^https://[^\s/?#]+\.[^\s/?#]+([/?#]\S*)?$') then
    raise exception 'Evidence links must be full addresses that start with https://' using errcode = '22023';
  end if;
  update public.disputes set answer = words, answer_links = links, answered_at = now()
  where id = d.id returning * into d;
  return jsonb_build_object('id', d.id, 'answered_at', d.answered_at, 'answer_links', to_jsonb(d.answer_links));
end
$function$;
comment on function public.answer_dispute(p_dispute_id uuid, p_text text, p_links text[]) is 'The publisher of the disputed source (live session, aal2 with a factor) answers once, before the 72 hours end: 20 to 4,000 characters and up to 5 https evidence links. Final, so the admin decides on what they read.';
revoke execute on function public.answer_dispute(p_dispute_id uuid, p_text text, p_links text[]) from public, anon;
grant execute on function public.answer_dispute(p_dispute_id uuid, p_text text, p_links text[]) to authenticated, service_role;

-- === Opening: the deadline, the hold on the money, the publisher's email ===================================

create or replace function public.open_dispute(p_reason text, p_subscription_ids uuid[] default null::uuid[], p_source_id uuid default null::uuid)
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
  opened public.disputes;
  stake record;
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
  returning * into opened;
  insert into public.dispute_subscriptions (dispute_id, subscription_id, campaign_id)
  select opened.id, s.id, s.campaign_id from public.newsletter_subscriptions s where s.id = any (coalesce(ids, '{}'::uuid[]));
  -- Held, never forfeited without a decision: screening cannot run out while the sides are heard.
  perform private.freeze_dispute_ledger(opened.id);

  select * into stake from private.dispute_stake(opened.id);
  perform private.enqueue_notification(opened.publisher_id, 'dispute_opened', jsonb_build_object(
      'dispute_id', opened.id, 'kind', opened.kind, 'source_name', src.name, 'reason', opened.reason,
      'campaign_name', (select string_agg(distinct c.name, ', ') from public.dispute_subscriptions ds
                        join public.campaigns c on c.id = ds.campaign_id where ds.dispute_id = opened.id),
      'readers', stake.readers, 'earnings', stake.earnings, 'answer_due_at', opened.answer_due_at),
    'dispute_opened:' || opened.id);
  return opened.id;
end
$function$;
comment on function public.open_dispute(p_reason text, p_subscription_ids uuid[], p_source_id uuid) is 'Advertisers (at aal2 with a factor) flag subscribers of one source still in screening, or a whole source, with a reason; their holds and the publisher''s earnings stop settling until the decision, and the publisher is emailed with 72 hours to answer. Returns the dispute id.';

-- === Deciding: after both sides, with the money it held ====================================================

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
  -- Both sides are heard: the publisher answered, or had their 72 hours (the money waits meanwhile).
  if d.answered_at is null and now() < d.answer_due_at then
    raise exception 'The publisher has until % to answer. Decide once they answer or the 72 hours pass.',
      to_char(d.answer_due_at at time zone 'UTC', 'Mon FMDD, YYYY, FMHH12:MI AM') || ' UTC' using errcode = '22023';
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
  -- What the decision did not refund settles as it would have (on the next run if its screening is over).
  perform private.release_dispute_ledger(d.id);
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
                       'campaign_name', coalesce(campaign_names, 'your newsletter'), 'source_name', source_name,
                       'dispute_id', d.id),
    'dispute_decided:' || d.id || ':advertiser');
  -- Each side in its own money: the publisher reads the earnings they lost, not the advertiser's refund.
  perform private.enqueue_notification(d.publisher_id, 'dispute_decided',
    jsonb_build_object('side', 'publisher', 'decision', p_decision, 'note', note, 'refunded', lost, 'subscribers', n,
                       'campaign_name', coalesce(campaign_names, 'a newsletter'), 'source_name', source_name,
                       'dispute_id', d.id),
    'dispute_decided:' || d.id || ':publisher');
  return jsonb_build_object('id', d.id, 'status', p_decision, 'refunded', total, 'refunded_subscribers', n,
    'earnings_cancelled', lost);
end
$function$;
comment on function public.decide_dispute(p_dispute_id uuid, p_decision text, p_note text) is 'Admins (at aal2), once the publisher answered or their 72 hours passed, uphold a dispute — refunding its subscribers still held through refund_subscription, recording the advertiser''s refund and the publisher''s cancelled earnings — or reject it; what was not refunded settles again. Both sides are emailed the note in their own money.';

-- === Emails: the two new ones ==============================================================================

-- The list is every template so far (20260511000200 added payout_reversed) and the two of this migration.
alter table public.notification_queue drop constraint notification_queue_template_check;
alter table public.notification_queue add constraint notification_queue_template_check check (template = any (array[
  'source_reviewed', 'campaign_reviewed', 'low_balance', 'payout_paid', 'payout_failed', 'payout_reversed',
  'dispute_decided', 'deposit_receipt', 'revision_decided', 'dispute_opened', 'account_suspended']));

create function private.notify_account_suspension()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if new.new_status = 'suspended' or (new.old_status = 'suspended' and new.new_status = 'active') then
    perform private.enqueue_notification(new.subject_id, 'account_suspended', jsonb_build_object(
      'status', case when new.new_status = 'suspended' then 'suspended' else 'reinstated' end, 'reason', new.reason),
      null);
  end if;
  return null;
end
$function$;
comment on function private.notify_account_suspension() is 'Trigger: the audit row of a suspension (admin_set_user_suspended) emails the user why and how to appeal; a reinstatement tells them too. The reason reaches its owner''s inbox only, never a screen before sign-in.';
revoke execute on function private.notify_account_suspension() from public;

create trigger moderation_events_notify_suspension after insert on public.moderation_events
  for each row when (new.subject_type = 'profile') execute function private.notify_account_suspension();
