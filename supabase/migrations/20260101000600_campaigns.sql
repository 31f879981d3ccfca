-- Baseline, campaigns: advertisers' campaigns, their budget and funding, review, revisions and the per-source counters.
--
-- One of the 13 files that replaced the 38 migrations of January 2026 (none had been applied to a hosted
-- database; docs/decisions.md), rendered from the schema they built with the changes listed in
-- supabase/tests/helpers/squash-changes.ts; supabase/tests/schema.test.ts proves everything else equal. The
-- history goes on in new migrations after these; the current state is read in supabase/schemas/.

-- === Tables ==============================================================================================

create table public.campaigns (
  id uuid default gen_random_uuid() not null,
  advertiser_id uuid not null,
  name text not null,
  description text,
  image_url text,
  website_url text,
  category text,
  price_per_subscriber numeric(12,2) default 1.00 not null,
  budget_total numeric(12,2) default 0 not null,
  budget_spent numeric(12,2) default 0 not null,
  status text default 'pending_review'::text not null,
  review_note text,
  funding_status text default 'funded'::text not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  budget_reserved numeric(12,2) default 0 not null,
  reservations_open integer default 0 not null,
  approved_at timestamp with time zone,
  constraint campaigns_pkey primary key (id),
  constraint campaigns_budget_covers_commitments check (((budget_spent >= (0)::numeric) and ((budget_spent + budget_reserved) <= budget_total))),
  constraint campaigns_budget_reserved_check check ((budget_reserved >= (0)::numeric)),
  constraint campaigns_budget_total_check check ((budget_total >= (0)::numeric)),
  constraint campaigns_category_check check ((category = any ((enum_range(null::public.category))::text[]))),
  constraint campaigns_description_check check ((char_length(description) <= 2000)),
  constraint campaigns_funding_status_check check ((funding_status = any ((enum_range(null::public.funding_status))::text[]))),
  constraint campaigns_image_url_check check ((char_length(image_url) <= 2048)),
  constraint campaigns_name_check check (((char_length(trim(both from name)) >= 2) and (char_length(trim(both from name)) <= 120))),
  constraint campaigns_price_per_subscriber_check check (((price_per_subscriber >= 0.50) and (price_per_subscriber <= 50.00))),
  constraint campaigns_reservations_open_check check ((reservations_open >= 0)),
  constraint campaigns_review_note_check check ((char_length(review_note) <= 1000)),
  constraint campaigns_status_check check ((status = any ((enum_range(null::public.campaign_status))::text[]))),
  constraint campaigns_website_url_check check ((char_length(website_url) <= 2048)),
  constraint campaigns_advertiser_id_fkey foreign key (advertiser_id) references public.profiles(id) on delete cascade
);
alter table public.campaigns enable row level security;
create index campaigns_advertiser_idx on public.campaigns using btree (advertiser_id);
create index campaigns_status_created_idx on public.campaigns using btree (status, created_at desc);
comment on table public.campaigns is 'A newsletter listed by an advertiser. budget_spent grows by price_per_subscriber for each counted subscriber and never passes budget_total. funding_status says whether it can pay one more subscriber (else it is not shown publicly, and the advertiser sees why).';
comment on column public.campaigns.budget_reserved is 'Sum of the prices reserved by pending subscriptions made through a source; counts against the budget and the advertiser''s balance.';
comment on column public.campaigns.reservations_open is 'How many pending subscriptions hold a reservation (the overview says so when paused).';
comment on column public.campaigns.approved_at is 'First activation by an admin: from then on, public fields change only through reviewed revisions.';
revoke insert, update, delete, truncate, references, trigger on table public.campaigns from anon;
revoke insert, update, truncate, references, trigger on table public.campaigns from authenticated;
revoke truncate, references, trigger on table public.campaigns from service_role;
grant insert (advertiser_id, name, description, image_url, website_url, category, price_per_subscriber, budget_total, status) on public.campaigns to authenticated;
grant update (name, description, image_url, website_url, category, price_per_subscriber, budget_total) on public.campaigns to authenticated;

create table public.content_revisions (
  id uuid default gen_random_uuid() not null,
  subject_type text not null,
  subject_id uuid not null,
  author_id uuid not null,
  changes jsonb not null,
  status text default 'pending'::text not null,
  review_note text,
  decided_by uuid,
  decided_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint content_revisions_pkey primary key (id),
  constraint content_revisions_changes_check check ((jsonb_typeof(changes) = 'object'::text)),
  constraint content_revisions_review_note_check check ((char_length(review_note) <= 1000)),
  constraint content_revisions_status_check check ((status = any (array['pending'::text, 'approved'::text, 'rejected'::text]))),
  constraint content_revisions_subject_type_check check ((subject_type = any (array['audience_source'::text, 'campaign'::text]))),
  constraint content_revisions_author_id_fkey foreign key (author_id) references public.profiles(id) on delete cascade,
  constraint content_revisions_decided_by_fkey foreign key (decided_by) references public.profiles(id) on delete set null
);
alter table public.content_revisions enable row level security;
create index content_revisions_author_idx on public.content_revisions using btree (author_id);
create index content_revisions_decided_by_idx on public.content_revisions using btree (decided_by);
create unique index content_revisions_one_pending_idx on public.content_revisions using btree (subject_type, subject_id) where (status = 'pending'::text);
create index content_revisions_pending_idx on public.content_revisions using btree (created_at) where (status = 'pending'::text);
create index content_revisions_subject_idx on public.content_revisions using btree (subject_type, subject_id, created_at desc);
comment on table public.content_revisions is 'Changes to an approved source''s or campaign''s public fields, waiting for an admin. The approved version stays live until one is approved.';
revoke insert, update, delete, truncate, references, trigger on table public.content_revisions from anon, authenticated;
revoke truncate, references, trigger on table public.content_revisions from service_role;

-- === Foreign keys to the tables above, from tables of earlier domains ====================================

alter table public.wallet_transactions add constraint wallet_transactions_campaign_id_fkey foreign key (campaign_id) references public.campaigns(id) on delete restrict;

-- === Functions ===========================================================================================

create function public.admin_decide_revision(p_revision_id uuid, p_decision text, p_note text default null::text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  r public.content_revisions;
  previous text;
begin
  perform private.require_admin();
  if p_decision is null or p_decision not in ('approved', 'rejected') then
    raise exception 'Choose approve or reject' using errcode = '22023';
  end if;
  if p_decision = 'rejected' and coalesce(trim(p_note), '') = '' then
    raise exception 'Give a reason when rejecting' using errcode = '22023';
  end if;
  select * into r from public.content_revisions where id = p_revision_id for update;
  if not found then
    raise exception 'Revision not found' using errcode = 'P0002';
  end if;
  if r.status <> 'pending' then
    raise exception 'This revision was already decided' using errcode = '22023';
  end if;
  if p_decision = 'approved' then
    if r.subject_type = 'campaign' then
      update public.campaigns c set
        name = coalesce(r.changes ->> 'name', c.name),
        description = case when r.changes ? 'description' then r.changes ->> 'description' else c.description end,
        image_url = case when r.changes ? 'image_url' then r.changes ->> 'image_url' else c.image_url end,
        website_url = case when r.changes ? 'website_url' then r.changes ->> 'website_url' else c.website_url end,
        category = case when r.changes ? 'category' then r.changes ->> 'category' else c.category end
      where c.id = r.subject_id returning c.status into previous;
    else
      update public.audience_sources s set
        name = coalesce(r.changes ->> 'name', s.name),
        description = case when r.changes ? 'description' then r.changes ->> 'description' else s.description end,
        image_url = case when r.changes ? 'image_url' then r.changes ->> 'image_url' else s.image_url end,
        url = case when r.changes ? 'url' then r.changes ->> 'url' else s.url end,
        category = case when r.changes ? 'category' then r.changes ->> 'category' else s.category end,
        platform = coalesce(r.changes ->> 'platform', s.platform)
      where s.id = r.subject_id returning s.status into previous;
    end if;
  end if;
  update public.content_revisions set status = p_decision, review_note = nullif(trim(p_note), ''),
    decided_by = (select auth.uid()), decided_at = now()
    where id = r.id;
  perform private.log_moderation_event(r.subject_type, r.subject_id, 'revision pending', 'revision ' || p_decision, p_note);
  return jsonb_build_object('id', r.id, 'status', p_decision);
end
$function$;
comment on function public.admin_decide_revision(p_revision_id uuid, p_decision text, p_note text) is 'Admins approve (apply) or reject a pending revision of a source or campaign; audit-logged.';
revoke execute on function public.admin_decide_revision(p_revision_id uuid, p_decision text, p_note text) from anon, public;

create function public.admin_set_campaign_status(p_campaign_id uuid, p_status text, p_reason text default null::text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  c public.campaigns;
  sub record;
begin
  perform private.require_admin();
  if p_status is null or p_status not in ('draft', 'pending_review', 'active', 'paused', 'rejected', 'completed', 'banned') then
    raise exception 'Unknown campaign status' using errcode = '22023';
  end if;
  if p_status in ('rejected', 'banned') and coalesce(trim(p_reason), '') = '' then
    raise exception 'Give a reason when rejecting or banning' using errcode = '22023';
  end if;
  if not exists (select 1 from public.campaigns where id = p_campaign_id) then
    raise exception 'Campaign not found' using errcode = 'P0002';
  end if;
  -- Lock order of the ledger: the advertiser's wallet, then the campaign.
  perform private.lock_wallet((select advertiser_id from public.campaigns where id = p_campaign_id));
  select * into c from public.campaigns where id = p_campaign_id for update;
  update public.campaigns set status = p_status, review_note = nullif(trim(p_reason), '') where id = p_campaign_id;
  perform private.log_moderation_event('campaign', p_campaign_id, c.status, p_status, p_reason);
  if p_status = 'banned' then
    -- Subscriptions still pending will never be paid for: their reservations go back to the advertiser.
    for sub in select n.id from public.newsletter_subscriptions n where n.campaign_id = p_campaign_id and n.reserved_amount > 0 loop
      perform private.release_reservation(sub.id);
    end loop;
  end if;
  return jsonb_build_object('id', p_campaign_id, 'status', p_status);
end
$function$;
comment on function public.admin_set_campaign_status(p_campaign_id uuid, p_status text, p_reason text) is 'Admins review, ban and reinstate campaigns; the reason becomes the advertiser-visible note and is audit-logged. Banning releases open reservations.';
revoke execute on function public.admin_set_campaign_status(p_campaign_id uuid, p_status text, p_reason text) from anon, public;

create function private.advertiser_balance_of(p_user_id uuid)
 returns table(available numeric, reserved numeric, on_hold numeric, balance numeric)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select (b.balance - h.on_hold - r.reserved)::numeric(12, 2), r.reserved::numeric(12, 2), h.on_hold::numeric(12, 2),
         b.balance::numeric(12, 2)
  from (select coalesce((select w.balance from public.wallet_balances w where w.user_id = p_user_id), 0) as balance) b,
       (select coalesce(-sum(t.amount), 0) as on_hold from public.wallet_transactions t
        where t.user_id = p_user_id and t.type = 'hold' and t.status = 'pending') h,
       (select coalesce(sum(c.budget_reserved), 0) as reserved from public.campaigns c where c.advertiser_id = p_user_id) r
$function$;
comment on function private.advertiser_balance_of(p_user_id uuid) is 'An advertiser''s money: balance (settled), on hold (screening), reserved (pending subscriptions), available.';
revoke execute on function private.advertiser_balance_of(p_user_id uuid) from public;

create function public.archive_campaign(p_campaign_id uuid)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  previous text;
begin
  select status into previous from public.campaigns
    where id = p_campaign_id and advertiser_id = (select auth.uid()) for update;
  if not found then
    raise exception 'You can only archive your own campaigns' using errcode = '42501';
  end if;
  update public.campaigns set status = 'archived' where id = p_campaign_id;
  perform private.log_moderation_event('campaign', p_campaign_id, previous, 'archived', 'Archived by its advertiser');
  return jsonb_build_object('id', p_campaign_id, 'status', 'archived');
end
$function$;
comment on function public.archive_campaign(p_campaign_id uuid) is 'Advertisers retire a campaign: no new subscribers; reservations already made are honoured; history stays.';
revoke execute on function public.archive_campaign(p_campaign_id uuid) from anon, public;

create function public.divert_public_edits()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
declare
  fields text[] := case when tg_table_name = 'campaigns'
    then array['name', 'description', 'image_url', 'website_url', 'category']
    else array['name', 'description', 'image_url', 'url', 'category', 'platform'] end;
  diff jsonb := '{}';
  f text;
  new_row jsonb := to_jsonb(new);
  old_row jsonb := to_jsonb(old);
begin
  if not public.is_api_caller() or old.approved_at is null then
    return new;
  end if;
  foreach f in array fields loop
    if (new_row -> f) is distinct from (old_row -> f) then
      diff := diff || jsonb_build_object(f, new_row -> f);
      new_row := jsonb_set(new_row, array[f], coalesce(old_row -> f, 'null'::jsonb));
    end if;
  end loop;
  if diff = '{}' then
    return new;
  end if;
  perform public.submit_revision(case when tg_table_name = 'campaigns' then 'campaign' else 'audience_source' end, old.id, diff);
  if tg_table_name = 'campaigns' then
    return jsonb_populate_record(null::public.campaigns, new_row);
  end if;
  return jsonb_populate_record(null::public.audience_sources, new_row);
end
$function$;
comment on function public.divert_public_edits() is 'Trigger: after approval, edits of public fields from the API become a pending revision; the approved values stay live.';
revoke execute on function public.divert_public_edits() from anon, authenticated, public;

create function private.guard_campaign_budget()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  if new.budget_total < new.budget_spent + new.budget_reserved then
    raise exception 'The budget can''t be lower than what is already spent, on hold or reserved (% credits)',
      to_char(new.budget_spent + new.budget_reserved, 'FM999999990.00')
      using errcode = '23514', hint = 'Raise the budget, or wait until open reservations expire.';
  end if;
  return new;
end
$function$;
comment on function private.guard_campaign_budget() is 'Refuses a budget below spent + held + reserved with a message a person can act on.';
revoke execute on function private.guard_campaign_budget() from public;

create function public.guard_campaign_columns()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
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
$function$;
comment on function public.guard_campaign_columns() is 'Keeps advertiser_id immutable, budget_spent platform-only and status changes to the review and pause functions.';
revoke execute on function public.guard_campaign_columns() from anon, authenticated, public;

create function public.my_default_campaign()
 returns uuid
 language sql
 stable security definer
 set search_path to ''
as $function$
  select id from public.campaigns
  where advertiser_id = (select auth.uid()) and status <> 'archived'
  order by (status = 'active') desc, created_at desc
  limit 1
$function$;
comment on function public.my_default_campaign() is 'The campaign the analytics page opens on: the signed-in advertiser''s most recent active one, else their most recent.';
revoke execute on function public.my_default_campaign() from anon, public;

create function private.refuse_deleting_evidence()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_table_name = 'audience_sources' and (
       exists (select 1 from public.link_clicks where audience_source_id = old.id)
       or exists (select 1 from public.newsletter_subscriptions where audience_source_id = old.id)) then
    raise exception 'This source has clicks or subscribers, so it can''t be deleted. Archive it instead.'
      using errcode = '23503';
  end if;
  if tg_table_name = 'campaigns' and (
       exists (select 1 from public.newsletter_subscriptions where campaign_id = old.id)
       or exists (select 1 from public.link_clicks where campaign_id = old.id)
       or exists (select 1 from public.wallet_transactions where campaign_id = old.id)) then
    raise exception 'This campaign has subscribers or payments, so it can''t be deleted. Archive it instead.'
      using errcode = '23503';
  end if;
  return old;
end
$function$;
comment on function private.refuse_deleting_evidence() is 'Trigger: sources and campaigns with activity are archived, never deleted.';
revoke execute on function private.refuse_deleting_evidence() from public;

create function public.set_campaign_funding_status()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  new.funding_status := private.campaign_funding_status(new.advertiser_id, new.price_per_subscriber,
    new.budget_total, new.budget_spent, new.budget_reserved);
  return new;
end
$function$;
comment on function public.set_campaign_funding_status() is 'Recomputes funding_status whenever a campaign changes.';
revoke execute on function public.set_campaign_funding_status() from anon, authenticated, public, service_role;

create function public.set_campaign_paused(p_campaign_id uuid, p_paused boolean)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
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
$function$;
comment on function public.set_campaign_paused(p_campaign_id uuid, p_paused boolean) is 'Advertisers pause and resume their own campaigns (active <-> paused only).';
revoke execute on function public.set_campaign_paused(p_campaign_id uuid, p_paused boolean) from anon, public;

create function public.submit_campaign_for_review(p_campaign_id uuid)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  current_status text;
begin
  select status::text into current_status from public.campaigns
    where id = p_campaign_id and advertiser_id = (select auth.uid()) for update;
  if not found then
    raise exception 'You can only submit your own campaigns' using errcode = '42501';
  end if;
  if current_status <> 'draft' then
    raise exception 'Only a draft can be sent for review' using errcode = '22023';
  end if;
  update public.campaigns set status = 'pending_review' where id = p_campaign_id;
  return jsonb_build_object('id', p_campaign_id, 'status', 'pending_review');
end
$function$;
comment on function public.submit_campaign_for_review(p_campaign_id uuid) is 'Advertisers send their own draft campaign to review (draft -> pending_review, the one status step that is theirs).';
revoke execute on function public.submit_campaign_for_review(p_campaign_id uuid) from anon, public;

create function public.submit_revision(p_subject_type text, p_subject_id uuid, p_changes jsonb)
 returns uuid
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  allowed text[] := case p_subject_type
    when 'campaign' then array['name', 'description', 'image_url', 'website_url', 'category']
    when 'audience_source' then array['name', 'description', 'image_url', 'url', 'category', 'platform'] end;
  owner uuid;
  approved timestamptz;
  diff jsonb;
  revision_id uuid;
begin
  if allowed is null then
    raise exception 'Unknown revision subject' using errcode = '22023';
  end if;
  if p_subject_type = 'campaign' then
    select advertiser_id, approved_at into owner, approved from public.campaigns where id = p_subject_id;
  else
    select publisher_id, approved_at into owner, approved from public.audience_sources where id = p_subject_id;
  end if;
  if owner is null or owner is distinct from (select auth.uid()) then
    raise exception 'You can only revise your own listings' using errcode = '42501';
  end if;
  select coalesce(jsonb_object_agg(key, value), '{}') into diff
    from jsonb_each(case when jsonb_typeof(p_changes) = 'object' then p_changes else '{}' end)
    where key = any (allowed);
  if diff = '{}' then
    raise exception 'Nothing to revise' using errcode = '22023';
  end if;
  insert into public.content_revisions as r (subject_type, subject_id, author_id, changes)
  values (p_subject_type, p_subject_id, owner, diff)
  on conflict (subject_type, subject_id) where status = 'pending'
  do update set changes = r.changes || excluded.changes, updated_at = now()
  returning id into revision_id;
  return revision_id;
end
$function$;
comment on function public.submit_revision(p_subject_type text, p_subject_id uuid, p_changes jsonb) is 'Owners propose changes to an approved source''s or campaign''s public fields; an admin reviews them. Edits through the table land here too.';
revoke execute on function public.submit_revision(p_subject_type text, p_subject_id uuid, p_changes jsonb) from anon, public;

create function private.wallet_available(p_user_id uuid)
 returns numeric
 language sql
 stable security definer
 set search_path to ''
as $function$
  select coalesce((select balance from public.wallet_balances where user_id = p_user_id), 0)
       + coalesce((select sum(amount) from public.wallet_transactions
                   where user_id = p_user_id and type = 'hold' and status = 'pending'), 0)
       - coalesce((select sum(budget_reserved) from public.campaigns where advertiser_id = p_user_id), 0)
$function$;
comment on function private.wallet_available(p_user_id uuid) is 'Internal: what an advertiser can still promise — balance minus pending holds minus reservations.';
revoke execute on function private.wallet_available(p_user_id uuid) from public;

create function private.campaign_funding_status(p_advertiser_id uuid, p_price numeric, p_budget_total numeric, p_budget_spent numeric, p_budget_reserved numeric)
 returns text
 language sql
 stable security definer
 set search_path to ''
as $function$
  select case
    when p_budget_total - p_budget_spent - p_budget_reserved < p_price then 'budget_exhausted'
    when private.wallet_available(p_advertiser_id) < p_price then 'balance_exhausted'
    else 'funded'
  end
$function$;
comment on function private.campaign_funding_status(p_advertiser_id uuid, p_price numeric, p_budget_total numeric, p_budget_spent numeric, p_budget_reserved numeric) is 'Whether a campaign can promise one more subscriber from its remaining budget (after spend and reservations) and its advertiser''s available balance.';
revoke execute on function private.campaign_funding_status(p_advertiser_id uuid, p_price numeric, p_budget_total numeric, p_budget_spent numeric, p_budget_reserved numeric) from public;

create function private.refresh_campaign_funding(p_advertiser_id uuid)
 returns void
 language sql
 security definer
 set search_path to ''
as $function$
  update public.campaigns c set funding_status = c.funding_status
  where c.advertiser_id = p_advertiser_id
    and c.funding_status is distinct from private.campaign_funding_status(
      c.advertiser_id, c.price_per_subscriber, c.budget_total, c.budget_spent, c.budget_reserved)
$function$;
comment on function private.refresh_campaign_funding(p_advertiser_id uuid) is 'Internal: re-derives funding_status of an advertiser''s campaigns after their balance moved.';
revoke execute on function private.refresh_campaign_funding(p_advertiser_id uuid) from public;

-- === Views ===============================================================================================

create view public.wallets with (security_invoker=true) as
 select w.id,
    w.user_id,
    w.balance,
    (coalesce(h.held, (0)::numeric))::numeric(12,2) as held,
    (((w.balance - coalesce(h.held, (0)::numeric)) - coalesce(r.reserved, (0)::numeric)))::numeric(12,2) as available,
    (coalesce(e.pending_earnings, (0)::numeric))::numeric(12,2) as pending_earnings,
    w.created_at,
    w.updated_at,
    (coalesce(r.reserved, (0)::numeric))::numeric(12,2) as reserved
   from (((public.wallet_balances w
     left join lateral ( select (- sum(t.amount)) as held
           from public.wallet_transactions t
          where ((t.user_id = w.user_id) and (t.type = 'hold'::text) and (t.status = 'pending'::text))) h on (true))
     left join lateral ( select sum(t.amount) as pending_earnings
           from public.wallet_transactions t
          where ((t.user_id = w.user_id) and (t.type = 'earning'::text) and (t.status = 'pending'::text))) e on (true))
     left join lateral ( select sum(c.budget_reserved) as reserved
           from public.campaigns c
          where (c.advertiser_id = w.user_id)) r on (true));
comment on view public.wallets is 'Wallet summary for screens: balance, held (pending holds), reserved (pending subscriptions), available (balance minus both) and pending earnings. Invoker rights: the wallet_balances policies apply.';
revoke insert, update, delete, truncate, references, trigger on table public.wallets from anon, authenticated;
revoke truncate, references, trigger on table public.wallets from service_role;

-- === Triggers ============================================================================================

create trigger audience_sources_divert_public_edits before update on public.audience_sources for each row execute function public.divert_public_edits();

create trigger audience_sources_refuse_deleting_evidence before delete on public.audience_sources for each row execute function private.refuse_deleting_evidence();

create trigger campaigns_divert_public_edits before update on public.campaigns for each row execute function public.divert_public_edits();

create trigger campaigns_guard_budget before insert or update of budget_total, budget_spent, budget_reserved on public.campaigns for each row execute function private.guard_campaign_budget();

create trigger campaigns_guard_columns before insert or update on public.campaigns for each row execute function public.guard_campaign_columns();

create trigger campaigns_refuse_deleting_evidence before delete on public.campaigns for each row execute function private.refuse_deleting_evidence();

create trigger campaigns_set_funding_status before insert or update on public.campaigns for each row execute function public.set_campaign_funding_status();

create trigger campaigns_set_updated_at before update on public.campaigns for each row execute function public.set_updated_at();

create trigger campaigns_stamp_approval before insert or update of status on public.campaigns for each row execute function private.stamp_first_approval();

create trigger content_revisions_set_updated_at before update on public.content_revisions for each row execute function public.set_updated_at();

-- === Row-level security policies =========================================================================

create policy "Admins can read every campaign" on public.campaigns
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Advertisers can delete their own unpublished campaigns" on public.campaigns
  for delete to authenticated
  using (((( select auth.uid() as uid) = advertiser_id) and (status = any (array['draft'::text, 'pending_review'::text, 'rejected'::text]))));
create policy "Advertisers can edit their own campaigns" on public.campaigns
  for update to authenticated
  using ((( select auth.uid() as uid) = advertiser_id))
  with check ((( select auth.uid() as uid) = advertiser_id));
create policy "Advertisers can read their own campaigns" on public.campaigns
  for select to authenticated
  using ((( select auth.uid() as uid) = advertiser_id));
create policy "Advertisers can submit campaigns" on public.campaigns
  for insert to authenticated
  with check (((( select auth.uid() as uid) = advertiser_id) and (status = any (array['draft'::text, 'pending_review'::text])) and (( select public.current_user_type() as current_user_type) = 'advertiser'::text)));
create policy "Signed-in users can read active funded campaigns" on public.campaigns
  for select to authenticated
  using (((status = 'active'::text) and (funding_status = 'funded'::text)));
create policy "Visitors can read active funded campaigns" on public.campaigns
  for select to anon
  using (((status = 'active'::text) and (funding_status = 'funded'::text)));

create policy "Admins can read every revision" on public.content_revisions
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Authors can read their own revisions" on public.content_revisions
  for select to authenticated
  using ((( select auth.uid() as uid) = author_id));

create policy "Admins can read every profile" on public.profiles
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Signed-in users can read advertisers with an active campaign" on public.profiles
  for select to authenticated
  using ((exists ( select 1
   from public.campaigns c
  where ((c.advertiser_id = profiles.id) and (c.status = 'active'::text)))));
create policy "Users can create their own profile" on public.profiles
  for insert to authenticated
  with check (((( select auth.uid() as uid) = id) and (user_type = any (array['advertiser'::text, 'publisher'::text]))));
create policy "Users can read their own profile" on public.profiles
  for select to authenticated
  using ((( select auth.uid() as uid) = id));
create policy "Users can update their own profile" on public.profiles
  for update to authenticated
  using ((( select auth.uid() as uid) = id))
  with check ((( select auth.uid() as uid) = id));
create policy "Visitors can read advertisers with an active campaign" on public.profiles
  for select to anon
  using ((exists ( select 1
   from public.campaigns c
  where ((c.advertiser_id = profiles.id) and (c.status = 'active'::text)))));
