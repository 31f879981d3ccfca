-- Attribution for every path, and the maintained aggregates every dashboard reads (PRODUCT "Attribution").
-- * A click belongs to its source, and to every campaign its visitor then opens (a campaign page, the
--   newsletter detail page, a card picked in the list) or subscribes to — several at once included — once
--   per (click, campaign) pair: link_clicks.attributed_campaign_ids remembers the pairs. Subscribing with a
--   click attaches it by trigger, so no browser path can forget to.
-- * Per-day aggregates, maintained by triggers in the same transaction as the event:
--   campaign_source_daily_stats (views, clicks, conversions, spend, earnings per campaign, source and UTC day),
--   source_daily_stats (every click on a source, counted or not, subscriptions started and confirmed) and
--   not_counted_daily (what did not count, by kind and reason, per source and campaign).
-- * One vocabulary of reasons (not_counted_reasons), with 'refunded' for a subscriber rejected as fraud or
--   refunded after a dispute during screening, so it appears under "Not counted, by reason" too.

create table public.not_counted_reasons (
  code text primary key,
  label text not null,
  applies_to text[] not null,
  position integer not null
);
comment on table public.not_counted_reasons is
  'The one vocabulary of "not counted" reason codes (PRODUCT "Attribution"), each with its plain-words label and whether it applies to clicks, subscriptions or both.';
insert into public.not_counted_reasons (code, label, applies_to, position) values
  ('bot_user_agent', 'Bot or crawler', '{click}', 1),
  ('head_request', 'Link preview (HEAD request)', '{click}', 2),
  ('duplicate_visitor', 'Same visitor within 1 hour', '{click}', 3),
  ('source_inactive', 'Source not approved', '{click,subscription}', 4),
  ('rate_limited', 'Too many clicks from one address', '{click}', 5),
  ('self_referral', 'The publisher''s own address', '{subscription}', 6),
  ('disposable_email', 'Disposable email address', '{subscription}', 7),
  ('duplicate_email', 'Email already counted for this newsletter', '{subscription}', 8),
  ('too_fast_confirmation', 'Confirmed within 2 seconds', '{subscription}', 9),
  ('no_click', 'No counted click by the same visitor within 24 hours', '{subscription}', 10),
  ('velocity', 'More than 3 sign-ups an hour from one visitor', '{subscription}', 11),
  ('budget_exhausted', 'Budget or balance exhausted', '{subscription}', 12),
  ('refunded', 'Refunded during screening (fraud or dispute)', '{subscription}', 13);

alter table public.not_counted_reasons enable row level security;
create policy "Visitors can read the reason vocabulary"
  on public.not_counted_reasons for select to anon using (true);
create policy "Signed-in users can read the reason vocabulary"
  on public.not_counted_reasons for select to authenticated using (true);
revoke all on public.not_counted_reasons from anon, authenticated;
grant select on public.not_counted_reasons to anon, authenticated;

alter table public.newsletter_subscriptions drop constraint newsletter_subscriptions_not_counted_reason_check;
alter table public.newsletter_subscriptions add constraint newsletter_subscriptions_not_counted_reason_check
  check (not_counted_reason in ('source_inactive', 'self_referral', 'disposable_email', 'duplicate_email',
    'too_fast_confirmation', 'no_click', 'velocity', 'budget_exhausted', 'refunded'));

-- The (click, campaign) pairs: a click counts once for each campaign its visitor opened or subscribed to.
alter table public.link_clicks add column attributed_campaign_ids uuid[] not null default '{}';
comment on column public.link_clicks.attributed_campaign_ids is
  'Campaigns this click belongs to (opened or subscribed to by its visitor); each pair counts one click, once.';
update public.link_clicks set attributed_campaign_ids = viewed_campaign_ids where cardinality(viewed_campaign_ids) > 0;
grant select (attributed_campaign_ids) on public.link_clicks to authenticated;

create function private.utc_day(p_at timestamptz)
returns date
language sql immutable parallel safe
set search_path = ''
as $$ select (p_at at time zone 'utc')::date $$;
comment on function private.utc_day(timestamptz) is 'Internal: the UTC calendar day every per-day figure is bucketed by.';
revoke execute on function private.utc_day(timestamptz) from public, anon, authenticated, service_role;

create table public.campaign_source_daily_stats (
  campaign_id uuid not null references public.campaigns (id) on delete cascade,
  audience_source_id uuid not null references public.audience_sources (id) on delete cascade,
  day date not null,
  views integer not null default 0,
  clicks integer not null default 0,
  conversions integer not null default 0,
  spend numeric(12, 2) not null default 0,
  earnings numeric(12, 2) not null default 0,
  primary key (campaign_id, audience_source_id, day)
);
comment on table public.campaign_source_daily_stats is
  'campaign_source_stats per UTC day, kept by triggers in the same transaction: views and clicks on the day they happened, conversions, spend and earnings on the day the subscriber confirmed (a refund takes them back from that day). Summed over all days it equals campaign_source_stats.';
create index campaign_source_daily_stats_source_idx on public.campaign_source_daily_stats (audience_source_id, day);

create table public.source_daily_stats (
  audience_source_id uuid not null references public.audience_sources (id) on delete cascade,
  day date not null,
  clicks integer not null default 0,
  counted_clicks integer not null default 0,
  subscriptions integer not null default 0,
  confirmations integer not null default 0,
  conversions integer not null default 0,
  earnings numeric(12, 2) not null default 0,
  primary key (audience_source_id, day)
);
comment on table public.source_daily_stats is
  'Per source and UTC day: every magic-link click (counted or not), subscriptions started through the source, confirmations, counted conversions and earnings. Feeds the publisher''s source figures and the directory''s quality.';

create table public.not_counted_daily (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('click', 'subscription')),
  reason text not null references public.not_counted_reasons (code),
  audience_source_id uuid not null references public.audience_sources (id) on delete cascade,
  campaign_id uuid references public.campaigns (id) on delete cascade,
  day date not null,
  total integer not null default 0,
  constraint not_counted_daily_key unique nulls not distinct (kind, reason, audience_source_id, campaign_id, day)
);
comment on table public.not_counted_daily is
  'What did not count, per kind (click, subscription), reason, source, campaign and UTC day. Click rows without a campaign are every click on the source; rows with a campaign are the not-counted clicks whose visitor opened or subscribed to it (once per pair).';
create index not_counted_daily_campaign_idx on public.not_counted_daily (campaign_id, day);
create index not_counted_daily_source_idx on public.not_counted_daily (audience_source_id, day);
create index not_counted_daily_reason_idx on public.not_counted_daily (reason);

alter table public.campaign_source_daily_stats enable row level security;
alter table public.source_daily_stats enable row level security;
alter table public.not_counted_daily enable row level security;
create policy "Advertisers can read daily stats of their campaigns"
  on public.campaign_source_daily_stats for select to authenticated
  using (exists (select 1 from public.campaigns c where c.id = campaign_id and c.advertiser_id = (select auth.uid())));
create policy "Publishers can read daily stats of their sources"
  on public.campaign_source_daily_stats for select to authenticated
  using (exists (select 1 from public.audience_sources s where s.id = audience_source_id and s.publisher_id = (select auth.uid())));
create policy "Admins can read every daily stat"
  on public.campaign_source_daily_stats for select to authenticated
  using ((select public.is_admin()));
create policy "Publishers can read daily figures of their sources"
  on public.source_daily_stats for select to authenticated
  using (exists (select 1 from public.audience_sources s where s.id = audience_source_id and s.publisher_id = (select auth.uid())));
create policy "Admins can read every source's daily figures"
  on public.source_daily_stats for select to authenticated
  using ((select public.is_admin()));
create policy "Advertisers can read what did not count on their campaigns"
  on public.not_counted_daily for select to authenticated
  using (exists (select 1 from public.campaigns c where c.id = campaign_id and c.advertiser_id = (select auth.uid())));
create policy "Publishers can read what did not count on their sources"
  on public.not_counted_daily for select to authenticated
  using (exists (select 1 from public.audience_sources s where s.id = audience_source_id and s.publisher_id = (select auth.uid())));
create policy "Admins can read everything that did not count"
  on public.not_counted_daily for select to authenticated
  using ((select public.is_admin()));
revoke all on public.campaign_source_daily_stats, public.source_daily_stats, public.not_counted_daily from anon, authenticated;
grant select on public.campaign_source_daily_stats, public.source_daily_stats, public.not_counted_daily to authenticated;

-- Writers of the aggregates (internal; called by the triggers below).
create function private.bump_not_counted(
  p_kind text, p_reason text, p_source_id uuid, p_campaign_id uuid, p_day date, p_delta integer
)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.not_counted_daily as n (kind, reason, audience_source_id, campaign_id, day, total)
  values (p_kind, p_reason, p_source_id, p_campaign_id, p_day, p_delta)
  on conflict on constraint not_counted_daily_key do update set total = n.total + excluded.total
$$;
comment on function private.bump_not_counted(text, text, uuid, uuid, date, integer) is
  'Internal: adds to the not-counted total of one kind, reason, source, campaign (or none) and day.';
revoke execute on function private.bump_not_counted(text, text, uuid, uuid, date, integer) from public, anon, authenticated, service_role;

create function private.bump_campaign_source_day(
  p_campaign_id uuid, p_source_id uuid, p_day date, p_views integer, p_clicks integer, p_conversions integer,
  p_spend numeric, p_earnings numeric
)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.campaign_source_daily_stats as d
    (campaign_id, audience_source_id, day, views, clicks, conversions, spend, earnings)
  values (p_campaign_id, p_source_id, p_day, p_views, p_clicks, p_conversions, p_spend, p_earnings)
  on conflict (campaign_id, audience_source_id, day) do update set
    views = d.views + excluded.views, clicks = d.clicks + excluded.clicks,
    conversions = d.conversions + excluded.conversions, spend = d.spend + excluded.spend,
    earnings = d.earnings + excluded.earnings
$$;
comment on function private.bump_campaign_source_day(uuid, uuid, date, integer, integer, integer, numeric, numeric) is
  'Internal: the set-based upsert of the per-day (campaign, source) figures.';
revoke execute on function private.bump_campaign_source_day(uuid, uuid, date, integer, integer, integer, numeric, numeric)
  from public, anon, authenticated, service_role;

create function private.bump_source_day(
  p_source_id uuid, p_day date, p_clicks integer, p_counted_clicks integer, p_subscriptions integer,
  p_confirmations integer, p_conversions integer, p_earnings numeric
)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.source_daily_stats as d
    (audience_source_id, day, clicks, counted_clicks, subscriptions, confirmations, conversions, earnings)
  values (p_source_id, p_day, p_clicks, p_counted_clicks, p_subscriptions, p_confirmations, p_conversions, p_earnings)
  on conflict (audience_source_id, day) do update set
    clicks = d.clicks + excluded.clicks, counted_clicks = d.counted_clicks + excluded.counted_clicks,
    subscriptions = d.subscriptions + excluded.subscriptions, confirmations = d.confirmations + excluded.confirmations,
    conversions = d.conversions + excluded.conversions, earnings = d.earnings + excluded.earnings
$$;
comment on function private.bump_source_day(uuid, date, integer, integer, integer, integer, integer, numeric) is
  'Internal: the set-based upsert of the per-day source figures.';
revoke execute on function private.bump_source_day(uuid, date, integer, integer, integer, integer, integer, numeric)
  from public, anon, authenticated, service_role;

-- Views and clicks per day follow campaign_source_stats; conversions, spend and earnings per day follow the
-- subscriptions (below), so that a refund is taken back from the day its subscriber confirmed.
create function private.campaign_source_stats_daily()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  dv integer := new.total_views - case when tg_op = 'UPDATE' then old.total_views else 0 end;
  dc integer := new.total_clicks - case when tg_op = 'UPDATE' then old.total_clicks else 0 end;
begin
  if dv <> 0 or dc <> 0 then
    perform private.bump_campaign_source_day(new.campaign_id, new.audience_source_id, private.utc_day(now()), dv, dc, 0, 0, 0);
  end if;
  return null;
end
$$;
comment on function private.campaign_source_stats_daily() is 'Internal trigger: the views and clicks added to campaign_source_stats, on today''s row.';
revoke execute on function private.campaign_source_stats_daily() from public, anon, authenticated, service_role;
create trigger campaign_source_stats_daily after insert or update on public.campaign_source_stats
  for each row execute function private.campaign_source_stats_daily();

create function private.link_click_daily()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.bump_source_day(new.audience_source_id, private.utc_day(new.created_at), 1,
    case when new.counted then 1 else 0 end, 0, 0, 0, 0);
  if not new.counted then
    perform private.bump_not_counted('click', new.not_counted_reason, new.audience_source_id, null,
      private.utc_day(new.created_at), 1);
  end if;
  return null;
end
$$;
comment on function private.link_click_daily() is 'Internal trigger: every click on its source''s day, and its reason when it did not count.';
revoke execute on function private.link_click_daily() from public, anon, authenticated, service_role;
create trigger link_clicks_daily after insert on public.link_clicks
  for each row execute function private.link_click_daily();

-- THE attribution of a click to a campaign: once per pair a click (counted: to the figures; not counted: to
-- the reasons), and a view when the visitor opened the campaign for the first time on this click.
create function private.attribute_click(p_click_id uuid, p_campaign_id uuid, p_first_view boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  c public.link_clicks;
  first_pair boolean;
begin
  select * into c from public.link_clicks where id = p_click_id for update;
  if not found or p_campaign_id is null then
    return;
  end if;
  first_pair := not (p_campaign_id = any (c.attributed_campaign_ids));
  if first_pair then
    update public.link_clicks set attributed_campaign_ids = attributed_campaign_ids || p_campaign_id,
      campaign_id = coalesce(campaign_id, p_campaign_id)
      where id = p_click_id;
  end if;
  if c.counted then
    if first_pair or p_first_view then
      perform public.bump_campaign_source_stats(p_campaign_id, c.audience_source_id,
        case when p_first_view then 1 else 0 end, case when first_pair then 1 else 0 end, 0);
    end if;
  elsif first_pair then
    perform private.bump_not_counted('click', c.not_counted_reason, c.audience_source_id, p_campaign_id,
      private.utc_day(c.created_at), 1);
  end if;
end
$$;
comment on function private.attribute_click(uuid, uuid, boolean) is
  'Internal: PRODUCT "click" — a click belongs to every campaign its visitor opens or subscribes to, once per pair; a first view of the campaign on this click adds a view.';
revoke execute on function private.attribute_click(uuid, uuid, boolean) from public, anon, authenticated, service_role;

create or replace function public.record_campaign_page_view(p_click_id uuid, p_campaign_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  c public.link_clicks;
  first_view boolean;
  in_window boolean;
begin
  if not exists (select 1 from public.campaigns where id = p_campaign_id and status = 'active') then
    return jsonb_build_object('recorded', false);
  end if;
  select * into c from public.link_clicks where id = p_click_id for update;
  if not found then
    return jsonb_build_object('recorded', false);
  end if;
  first_view := not (p_campaign_id = any (c.viewed_campaign_ids));
  in_window := c.view_window_started_at is not null and c.view_window_started_at > now() - interval '1 minute';
  if not first_view and in_window and c.view_window_count >= 10 then
    return jsonb_build_object('recorded', false, 'page_views', c.page_views, 'unique_views', c.unique_views);
  end if;
  update public.link_clicks set
    page_views = page_views + 1,
    unique_views = unique_views + case when first_view then 1 else 0 end,
    viewed_campaign_ids = case when first_view then viewed_campaign_ids || p_campaign_id else viewed_campaign_ids end,
    view_window_started_at = case when in_window then view_window_started_at else now() end,
    view_window_count = case when in_window then view_window_count + 1 else 1 end
  where id = p_click_id
  returning * into c;
  perform private.attribute_click(p_click_id, p_campaign_id, first_view);
  return jsonb_build_object('recorded', true, 'page_views', c.page_views, 'unique_views', c.unique_views);
end
$$;
comment on function public.record_campaign_page_view(uuid, uuid) is
  'SPEC §7 link_clicks update without table rights, for every page or card a visitor opens (campaign link page, newsletter page, a card picked in the list): page_views (at most 10 a minute per click), unique_views; the (campaign, source) counters count a view once per click and campaign and the click once per pair.';

-- Subscribing with a click attaches the click to the campaign (several newsletters at once: each of them).
create function private.subscription_attributes_click()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.click_id is not null and (tg_op = 'INSERT' or old.click_id is distinct from new.click_id) then
    perform private.attribute_click(new.click_id, new.campaign_id, false);
  end if;
  return null;
end
$$;
comment on function private.subscription_attributes_click() is 'Internal trigger: a subscription made on a click makes the click belong to that campaign.';
revoke execute on function private.subscription_attributes_click() from public, anon, authenticated, service_role;
create trigger newsletter_subscriptions_attribute_click after insert or update of click_id on public.newsletter_subscriptions
  for each row execute function private.subscription_attributes_click();

-- A paid subscriber taken back during screening (fraud, dispute, source banned) says why it no longer counts.
create function private.mark_refunded_subscription()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.counted and not new.counted and new.not_counted_reason is null and new.status <> 'pending' then
    new.not_counted_reason := 'refunded';
  end if;
  return new;
end
$$;
comment on function private.mark_refunded_subscription() is 'Internal trigger: a counted subscriber that stops counting (not by re-subscribing) is refunded.';
revoke execute on function private.mark_refunded_subscription() from public, anon, authenticated, service_role;
create trigger newsletter_subscriptions_mark_refunded before update on public.newsletter_subscriptions
  for each row execute function private.mark_refunded_subscription();

create function private.subscription_daily()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
    earning := round(new.price * 0.8, 2);
    perform private.bump_campaign_source_day(new.campaign_id, new.audience_source_id, private.utc_day(new.confirmed_at),
      0, 0, 1, new.price, earning);
    perform private.bump_source_day(new.audience_source_id, private.utc_day(new.confirmed_at), 0, 0, 0, 0, 1, earning);
  elsif was_counted and not new.counted then
    earning := round(old.price * 0.8, 2);
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
$$;
comment on function private.subscription_daily() is
  'Internal trigger: keeps the per-day conversions, spend, earnings, source subscriptions and confirmations, and the not-counted subscription reasons, in step with every subscription change.';
revoke execute on function private.subscription_daily() from public, anon, authenticated, service_role;
create trigger newsletter_subscriptions_daily after insert or update on public.newsletter_subscriptions
  for each row execute function private.subscription_daily();

-- Backfill from what is already recorded (an existing database; the seed runs after this migration).
insert into public.source_daily_stats (audience_source_id, day, clicks, counted_clicks)
  select audience_source_id, private.utc_day(created_at), count(*), count(*) filter (where counted)
  from public.link_clicks group by 1, 2;
insert into public.not_counted_daily (kind, reason, audience_source_id, campaign_id, day, total)
  select 'click', not_counted_reason, audience_source_id, null, private.utc_day(created_at), count(*)
  from public.link_clicks where not counted group by 2, 3, 5;
insert into public.campaign_source_daily_stats (campaign_id, audience_source_id, day, views, clicks, conversions, spend, earnings)
  select campaign_id, audience_source_id, private.utc_day(updated_at), total_views, total_clicks, total_conversions,
    total_spend, total_earnings
  from public.campaign_source_stats;
