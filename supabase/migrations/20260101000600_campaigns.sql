-- Campaigns: an advertiser's newsletter listed for growth, with its price per confirmed subscriber and
-- budget. New campaigns wait for review; admins activate them; advertisers pause and resume their own.
-- Also the per-(campaign, source) counters and the policies that show an active campaign's advertiser name.

create table public.campaigns (
  id uuid primary key default gen_random_uuid(),
  advertiser_id uuid not null,
  name text not null check (char_length(trim(name)) between 2 and 120),
  description text check (char_length(description) <= 2000),
  image_url text check (char_length(image_url) <= 2048),
  website_url text check (char_length(website_url) <= 2048),
  category text check (char_length(category) <= 60),
  price_per_subscriber numeric(12, 2) not null default 1.00 check (price_per_subscriber between 0.50 and 50.00),
  budget_total numeric(12, 2) not null default 0 check (budget_total >= 0),
  budget_spent numeric(12, 2) not null default 0 check (budget_spent >= 0 and budget_spent <= budget_total),
  status text not null default 'pending_review'
    check (status in ('draft', 'pending_review', 'active', 'paused', 'rejected', 'completed')),
  review_note text check (char_length(review_note) <= 1000),
  funding_status text not null default 'funded' check (funding_status in ('funded', 'budget_exhausted', 'balance_exhausted')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint campaigns_advertiser_id_fkey foreign key (advertiser_id) references public.profiles (id) on delete cascade
);
comment on table public.campaigns is
  'A newsletter listed by an advertiser. budget_spent grows by price_per_subscriber for each counted subscriber and never passes budget_total. funding_status says whether it can pay one more subscriber (else it is not shown publicly, and the advertiser sees why).';
create index campaigns_advertiser_idx on public.campaigns (advertiser_id);
create index campaigns_status_created_idx on public.campaigns (status, created_at desc);

alter table public.campaigns enable row level security;

create policy "Visitors can read active funded campaigns"
  on public.campaigns for select to anon
  using (status = 'active' and funding_status = 'funded');
create policy "Signed-in users can read active funded campaigns"
  on public.campaigns for select to authenticated
  using (status = 'active' and funding_status = 'funded');
create policy "Advertisers can read their own campaigns"
  on public.campaigns for select to authenticated
  using ((select auth.uid()) = advertiser_id);
create policy "Admins can read every campaign"
  on public.campaigns for select to authenticated
  using ((select public.is_admin()));
create policy "Advertisers can submit campaigns"
  on public.campaigns for insert to authenticated
  with check (
    (select auth.uid()) = advertiser_id
    and status in ('draft', 'pending_review')
    and (select public.current_user_type()) = 'advertiser'
  );
create policy "Advertisers can edit their own campaigns"
  on public.campaigns for update to authenticated
  using ((select auth.uid()) = advertiser_id)
  with check ((select auth.uid()) = advertiser_id);
create policy "Advertisers can delete their own unpublished campaigns"
  on public.campaigns for delete to authenticated
  using ((select auth.uid()) = advertiser_id and status in ('draft', 'pending_review', 'rejected'));

create function public.guard_campaign_columns()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if public.is_api_caller() then
      new.budget_spent := 0;
      new.review_note := null;
    end if;
    return new;
  end if;
  if new.advertiser_id is distinct from old.advertiser_id then
    raise exception 'A campaign cannot change owner' using errcode = '42501';
  end if;
  if public.is_api_caller() then
    if new.budget_spent is distinct from old.budget_spent then
      raise exception 'Spend is recorded by the platform' using errcode = '42501';
    end if;
    if new.review_note is distinct from old.review_note then
      raise exception 'Only an admin can change a campaign''s status' using errcode = '42501';
    end if;
    -- An advertiser may move a draft to review; every other status change goes through a function.
    if new.status is distinct from old.status and not (old.status = 'draft' and new.status = 'pending_review') then
      raise exception 'Only an admin can change a campaign''s status' using errcode = '42501';
    end if;
  end if;
  return new;
end
$$;
comment on function public.guard_campaign_columns() is
  'Keeps advertiser_id immutable, budget_spent platform-only and status changes to the review and pause functions.';
revoke execute on function public.guard_campaign_columns() from public, anon, authenticated;

create trigger campaigns_guard_columns before insert or update on public.campaigns
  for each row execute function public.guard_campaign_columns();

create function public.campaign_funding_status(p_advertiser_id uuid, p_price numeric, p_budget_total numeric, p_budget_spent numeric)
returns text
language sql stable
security definer
set search_path = ''
as $$
  select case
    when p_budget_total - p_budget_spent < p_price then 'budget_exhausted'
    when public.wallet_available(p_advertiser_id) < p_price then 'balance_exhausted'
    else 'funded'
  end
$$;
comment on function public.campaign_funding_status(uuid, numeric, numeric, numeric) is
  'Whether a campaign can pay one more subscriber from its remaining budget and its advertiser''s available balance.';
revoke execute on function public.campaign_funding_status(uuid, numeric, numeric, numeric) from public, anon, authenticated, service_role;

-- Runs on every insert and update so browser code can never set funding_status itself.
create function public.set_campaign_funding_status()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.funding_status := public.campaign_funding_status(new.advertiser_id, new.price_per_subscriber, new.budget_total, new.budget_spent);
  return new;
end
$$;
comment on function public.set_campaign_funding_status() is 'Recomputes funding_status whenever a campaign changes.';
revoke execute on function public.set_campaign_funding_status() from public, anon, authenticated, service_role;

create trigger campaigns_set_funding_status before insert or update on public.campaigns
  for each row execute function public.set_campaign_funding_status();

-- Called by the ledger writers after an advertiser's available balance changed (wallet locked first,
-- then campaigns: the same order confirm_subscription uses, so the two never deadlock).
create function public.refresh_campaign_funding(p_advertiser_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.campaigns c set funding_status = c.funding_status
  where c.advertiser_id = p_advertiser_id
    and c.funding_status is distinct from
        public.campaign_funding_status(c.advertiser_id, c.price_per_subscriber, c.budget_total, c.budget_spent)
$$;
comment on function public.refresh_campaign_funding(uuid) is
  'Internal: re-derives funding_status of an advertiser''s campaigns after their balance moved.';
revoke execute on function public.refresh_campaign_funding(uuid) from public, anon, authenticated, service_role;
create trigger campaigns_set_updated_at before update on public.campaigns
  for each row execute function public.set_updated_at();

-- Advertiser names are public only where a campaign of theirs is active (emails stay column-protected).
create policy "Signed-in users can read advertisers with an active campaign"
  on public.profiles for select to authenticated
  using (exists (select 1 from public.campaigns c where c.advertiser_id = profiles.id and c.status = 'active'));
create policy "Visitors can read advertisers with an active campaign"
  on public.profiles for select to anon
  using (exists (select 1 from public.campaigns c where c.advertiser_id = profiles.id and c.status = 'active'));

create table public.campaign_source_stats (
  id uuid primary key default gen_random_uuid(),
  campaign_id uuid not null references public.campaigns (id) on delete cascade,
  audience_source_id uuid not null references public.audience_sources (id) on delete cascade,
  total_views integer not null default 0 check (total_views >= 0),
  total_clicks integer not null default 0 check (total_clicks >= 0),
  total_conversions integer not null default 0 check (total_conversions >= 0),
  total_spend numeric(12, 2) not null default 0,
  total_earnings numeric(12, 2) not null default 0,
  ctr numeric(7, 2) generated always as (
    case when total_clicks > 0 then round(total_conversions * 100.0 / total_clicks, 2) else 0 end
  ) stored,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (campaign_id, audience_source_id)
);
comment on table public.campaign_source_stats is
  'Counted traffic per campaign and source. total_views: campaign page views by counted clicks; total_clicks: counted clicks that opened this campaign (first view per click); total_conversions: counted confirmed subscribers; ctr = conversions per 100 clicks.';
create index campaign_source_stats_source_idx on public.campaign_source_stats (audience_source_id);
create trigger campaign_source_stats_immutable before update on public.campaign_source_stats
  for each row execute function public.forbid_column_changes('campaign_id', 'audience_source_id');

alter table public.campaign_source_stats enable row level security;

create policy "Advertisers can read stats of their campaigns"
  on public.campaign_source_stats for select to authenticated
  using (exists (select 1 from public.campaigns c where c.id = campaign_id and c.advertiser_id = (select auth.uid())));
create policy "Publishers can read stats of their sources"
  on public.campaign_source_stats for select to authenticated
  using (exists (select 1 from public.audience_sources s where s.id = audience_source_id and s.publisher_id = (select auth.uid())));
create policy "Admins can read every stat"
  on public.campaign_source_stats for select to authenticated
  using ((select public.is_admin()));

create function public.bump_campaign_source_stats(
  p_campaign_id uuid, p_source_id uuid, p_views integer, p_clicks integer, p_conversions integer,
  p_spend numeric default 0, p_earnings numeric default 0
)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.campaign_source_stats
    (campaign_id, audience_source_id, total_views, total_clicks, total_conversions, total_spend, total_earnings)
  values (p_campaign_id, p_source_id, p_views, p_clicks, p_conversions, p_spend, p_earnings)
  on conflict (campaign_id, audience_source_id) do update set
    total_views = public.campaign_source_stats.total_views + excluded.total_views,
    total_clicks = public.campaign_source_stats.total_clicks + excluded.total_clicks,
    total_conversions = public.campaign_source_stats.total_conversions + excluded.total_conversions,
    total_spend = public.campaign_source_stats.total_spend + excluded.total_spend,
    total_earnings = public.campaign_source_stats.total_earnings + excluded.total_earnings,
    updated_at = now()
$$;
comment on function public.bump_campaign_source_stats(uuid, uuid, integer, integer, integer, numeric, numeric) is
  'Internal: the set-based upsert that keeps the per-(campaign, source) counters.';
revoke execute on function public.bump_campaign_source_stats(uuid, uuid, integer, integer, integer, numeric, numeric)
  from public, anon, authenticated, service_role;

create function public.set_campaign_paused(p_campaign_id uuid, p_paused boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  c public.campaigns;
begin
  select * into c from public.campaigns where id = p_campaign_id for update;
  if not found or c.advertiser_id is distinct from (select auth.uid()) then
    raise exception 'You can only pause your own campaigns' using errcode = '42501';
  end if;
  if p_paused and c.status <> 'active' then
    raise exception 'Only active campaigns can be paused' using errcode = '22023';
  end if;
  if not p_paused and c.status <> 'paused' then
    raise exception 'Only paused campaigns can be resumed' using errcode = '22023';
  end if;
  update public.campaigns set status = case when p_paused then 'paused' else 'active' end
    where id = p_campaign_id returning * into c;
  return jsonb_build_object('id', c.id, 'status', c.status);
end
$$;
comment on function public.set_campaign_paused(uuid, boolean) is 'Advertisers pause and resume their own campaigns (active <-> paused only).';
revoke execute on function public.set_campaign_paused(uuid, boolean) from public, anon, authenticated;
grant execute on function public.set_campaign_paused(uuid, boolean) to authenticated;
