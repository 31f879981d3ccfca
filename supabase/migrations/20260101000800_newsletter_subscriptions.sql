-- Double opt-in subscriptions. The subscribe edge function creates pending rows (only token hashes are
-- stored; tokens are valid 48 hours and single use); verify-subscription confirms one. Confirming a
-- subscriber attributed to a public source counts a conversion and moves money: the advertiser's hold
-- and the publisher's pending earning, both settled after the 7-day screening (settle_matured_holds).

create table public.newsletter_subscriptions (
  id uuid primary key default gen_random_uuid(),
  campaign_id uuid not null references public.campaigns (id) on delete cascade,
  email extensions.citext not null check (char_length(email::text) <= 254),
  email_folded text generated always as (public.fold_email(email::text)) stored,
  status text not null default 'pending' check (status in ('pending', 'confirmed', 'expired', 'unsubscribed', 'rejected')),
  token_hash text unique,
  used_token_hash text,
  token_expires_at timestamptz,
  armed_at timestamptz not null default now(),
  confirmed_at timestamptz,
  audience_source_id uuid references public.audience_sources (id) on delete set null,
  click_id uuid references public.link_clicks (id) on delete set null,
  counted boolean not null default false,
  not_counted_reason text check (not_counted_reason in (
    'source_inactive', 'self_referral', 'disposable_email', 'duplicate_email', 'too_fast_confirmation', 'budget_exhausted')),
  price numeric(12, 2),
  subscribe_ip text,
  subscribe_user_agent text,
  confirm_ip text,
  confirm_user_agent text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (campaign_id, email)
);
comment on table public.newsletter_subscriptions is
  'A visitor''s subscription to one campaign. counted says whether it was paid for; not_counted_reason says why not (null on an unattributed, free subscriber). budget_exhausted: confirmed but the campaign budget or advertiser balance could not pay.';
create index newsletter_subscriptions_used_token_idx on public.newsletter_subscriptions (used_token_hash) where used_token_hash is not null;
create index newsletter_subscriptions_folded_idx on public.newsletter_subscriptions (campaign_id, email_folded) where counted;
create index newsletter_subscriptions_source_idx on public.newsletter_subscriptions (audience_source_id);
create index newsletter_subscriptions_click_idx on public.newsletter_subscriptions (click_id) where click_id is not null;
create index newsletter_subscriptions_campaign_created_idx on public.newsletter_subscriptions (campaign_id, created_at desc);

alter table public.newsletter_subscriptions enable row level security;

create policy "Advertisers can read subscribers of their campaigns"
  on public.newsletter_subscriptions for select to authenticated
  using (exists (select 1 from public.campaigns c where c.id = campaign_id and c.advertiser_id = (select auth.uid())));
create policy "Admins can read every subscription"
  on public.newsletter_subscriptions for select to authenticated
  using ((select public.is_admin()));

create trigger newsletter_subscriptions_set_updated_at before update on public.newsletter_subscriptions
  for each row execute function public.set_updated_at();
create trigger newsletter_subscriptions_immutable before update on public.newsletter_subscriptions
  for each row execute function public.forbid_column_changes('campaign_id', 'email');

alter table public.wallet_transactions
  add constraint wallet_transactions_campaign_id_fkey foreign key (campaign_id) references public.campaigns (id) on delete set null,
  add constraint wallet_transactions_subscription_id_fkey foreign key (subscription_id) references public.newsletter_subscriptions (id) on delete set null;
create index wallet_transactions_campaign_idx on public.wallet_transactions (campaign_id) where campaign_id is not null;

create function public.create_pending_subscriptions(
  p_email text, p_campaign_ids uuid[], p_token_hashes text[], p_audience_source_id uuid default null,
  p_click_id uuid default null, p_ip text default null, p_user_agent text default null
)
returns table (campaign_id uuid, campaign_name text, result text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  addr text := lower(trim(coalesce(p_email, '')));
  i integer;
  c public.campaigns;
  s public.newsletter_subscriptions;
  source_id uuid := p_audience_source_id;
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
  if p_click_id is not null then
    select coalesce(source_id, l.audience_source_id) into source_id from public.link_clicks l
      where l.id = p_click_id and (source_id is null or l.audience_source_id = source_id);
    if not found then
      p_click_id := null;
      source_id := p_audience_source_id;
    end if;
  end if;
  if source_id is not null and not exists (select 1 from public.audience_sources where id = source_id) then
    source_id := null;
  end if;

  for i in 1 .. cardinality(p_campaign_ids) loop
    select * into c from public.campaigns where id = p_campaign_ids[i];
    if not found or c.status <> 'active' or c.funding_status <> 'funded' then
      raise exception 'This newsletter is not accepting subscribers' using errcode = '22023';
    end if;
    insert into public.newsletter_subscriptions as ns
      (campaign_id, email, status, token_hash, token_expires_at, armed_at, audience_source_id, click_id,
       subscribe_ip, subscribe_user_agent)
    values (c.id, addr, 'pending', p_token_hashes[i], now() + interval '48 hours', clock_timestamp(), source_id,
      p_click_id, left(p_ip, 100), left(p_user_agent, 1000))
    on conflict on constraint newsletter_subscriptions_campaign_id_email_key do update set
      status = 'pending',
      token_hash = excluded.token_hash,
      token_expires_at = excluded.token_expires_at,
      armed_at = excluded.armed_at,
      audience_source_id = coalesce(excluded.audience_source_id, ns.audience_source_id),
      click_id = coalesce(excluded.click_id, ns.click_id),
      counted = false,
      not_counted_reason = null,
      subscribe_ip = excluded.subscribe_ip,
      subscribe_user_agent = excluded.subscribe_user_agent
    where ns.status in ('pending', 'expired', 'unsubscribed')
    returning * into s;
    if found then
      campaign_id := c.id; campaign_name := c.name; result := 'pending';
    else
      select * into s from public.newsletter_subscriptions n where n.campaign_id = c.id and n.email = addr::extensions.citext;
      campaign_id := c.id; campaign_name := c.name;
      result := case when s.status = 'confirmed' then 'already_confirmed' else s.status end;
    end if;
    return next;
  end loop;
end
$$;
comment on function public.create_pending_subscriptions(text, uuid[], text[], uuid, uuid, text, text) is
  'subscribe edge function, service role only: one pending row per campaign (new, or re-armed with a new token when pending, expired or unsubscribed). result: pending | already_confirmed | rejected (a fraud-rejected address gets no new link). All or nothing.';
revoke execute on function public.create_pending_subscriptions(text, uuid[], text[], uuid, uuid, text, text) from public, anon, authenticated;
grant execute on function public.create_pending_subscriptions(text, uuid[], text[], uuid, uuid, text, text) to service_role;
