-- Edits after approval become revisions; anything with activity is archived, never deleted.
-- * Once a source or campaign has been approved, a change to what visitors and emails see (name, description,
--   image, URL, category, platform) is not applied: it is stored as a pending revision that an admin reviews,
--   and the approved version stays live meanwhile. So an approved listing cannot be turned into a phishing
--   text, and nothing unreviewed reaches the confirmation emails.
-- * Clicks, subscriptions, stats and ledger rows are evidence: the foreign keys that pointed at a source or
--   campaign with `on delete cascade` or `set null` now restrict, and owners archive instead of deleting.

create table public.content_revisions (
  id uuid primary key default gen_random_uuid(),
  subject_type text not null check (subject_type in ('audience_source', 'campaign')),
  subject_id uuid not null,
  author_id uuid not null references public.profiles (id) on delete cascade,
  changes jsonb not null check (jsonb_typeof(changes) = 'object'),
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  review_note text check (char_length(review_note) <= 1000),
  decided_by uuid references public.profiles (id) on delete set null,
  decided_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.content_revisions is
  'Changes to an approved source''s or campaign''s public fields, waiting for an admin. The approved version stays live until one is approved.';
create unique index content_revisions_one_pending_idx on public.content_revisions (subject_type, subject_id)
  where status = 'pending';
create index content_revisions_subject_idx on public.content_revisions (subject_type, subject_id, created_at desc);
create index content_revisions_author_idx on public.content_revisions (author_id);
create index content_revisions_decided_by_idx on public.content_revisions (decided_by);
create index content_revisions_pending_idx on public.content_revisions (created_at) where status = 'pending';

alter table public.content_revisions enable row level security;
create policy "Authors can read their own revisions"
  on public.content_revisions for select to authenticated
  using ((select auth.uid()) = author_id);
create policy "Admins can read every revision"
  on public.content_revisions for select to authenticated
  using ((select public.is_admin()));
create trigger content_revisions_set_updated_at before update on public.content_revisions
  for each row execute function public.set_updated_at();

-- Archived is a status of its own: not public, accepts no clicks' credit and no new subscribers.
alter table public.audience_sources drop constraint audience_sources_status_check;
alter table public.audience_sources add constraint audience_sources_status_check
  check (status in ('approved', 'live', 'verified', 'pending', 'pending_review', 'under_review', 'rejected', 'banned', 'archived'));
alter table public.campaigns drop constraint campaigns_status_check;
alter table public.campaigns add constraint campaigns_status_check
  check (status in ('draft', 'pending_review', 'active', 'paused', 'rejected', 'completed', 'archived'));
alter table public.audience_sources add column approved_at timestamptz;
alter table public.campaigns add column approved_at timestamptz;
comment on column public.audience_sources.approved_at is 'First approval: from then on, public fields change only through reviewed revisions.';
comment on column public.campaigns.approved_at is 'First activation by an admin: from then on, public fields change only through reviewed revisions.';
update public.audience_sources set approved_at = created_at where status in ('approved', 'verified', 'live', 'banned');
update public.campaigns set approved_at = created_at where status in ('active', 'paused', 'completed');

create function private.stamp_first_approval()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.approved_at is null and (
       (tg_table_name = 'audience_sources' and new.status in ('approved', 'verified', 'live'))
    or (tg_table_name = 'campaigns' and new.status in ('active', 'paused', 'completed'))) then
    new.approved_at := now();
  end if;
  return new;
end
$$;
comment on function private.stamp_first_approval() is 'Remembers when a source or campaign was first approved.';
revoke execute on function private.stamp_first_approval() from public, anon, authenticated, service_role;
create trigger audience_sources_stamp_approval before insert or update of status on public.audience_sources
  for each row execute function private.stamp_first_approval();
create trigger campaigns_stamp_approval before insert or update of status on public.campaigns
  for each row execute function private.stamp_first_approval();

-- One pending revision per subject: a later edit adds to it (its latest value of each field wins).
create function public.submit_revision(p_subject_type text, p_subject_id uuid, p_changes jsonb)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
comment on function public.submit_revision(text, uuid, jsonb) is
  'Owners propose changes to an approved source''s or campaign''s public fields; an admin reviews them. Edits through the table land here too.';
revoke execute on function public.submit_revision(text, uuid, jsonb) from public, anon, authenticated;
grant execute on function public.submit_revision(text, uuid, jsonb) to authenticated;

-- Browser edits of an approved row's public fields are diverted into the pending revision. Security invoker
-- on purpose: is_api_caller() must see the API role (a definer function, such as an admin's decision, writes
-- through); the revision itself is written by the definer submit_revision.
create function public.divert_public_edits()
returns trigger
language plpgsql
set search_path = ''
as $$
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
$$;
comment on function public.divert_public_edits() is
  'Trigger: after approval, edits of public fields from the API become a pending revision; the approved values stay live.';
revoke execute on function public.divert_public_edits() from public, anon, authenticated;
create trigger audience_sources_divert_public_edits before update on public.audience_sources
  for each row execute function public.divert_public_edits();
create trigger campaigns_divert_public_edits before update on public.campaigns
  for each row execute function public.divert_public_edits();

create function public.admin_decide_revision(p_revision_id uuid, p_decision text, p_note text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  r public.content_revisions;
  previous text;
begin
  perform public.require_admin();
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
  perform public.log_moderation_event(r.subject_type, r.subject_id, 'revision pending', 'revision ' || p_decision, p_note);
  return jsonb_build_object('id', r.id, 'status', p_decision);
end
$$;
comment on function public.admin_decide_revision(uuid, text, text) is
  'Admins approve (apply) or reject a pending revision of a source or campaign; audit-logged.';
revoke execute on function public.admin_decide_revision(uuid, text, text) from public, anon, authenticated;
grant execute on function public.admin_decide_revision(uuid, text, text) to authenticated;

-- Archive instead of delete.
create function public.archive_audience_source(p_source_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  previous text;
begin
  select status into previous from public.audience_sources
    where id = p_source_id and publisher_id = (select auth.uid()) for update;
  if not found then
    raise exception 'You can only archive your own sources' using errcode = '42501';
  end if;
  if previous = 'banned' then
    raise exception 'A banned source stays banned' using errcode = '22023';
  end if;
  update public.audience_sources set status = 'archived' where id = p_source_id;
  perform public.log_moderation_event('audience_source', p_source_id, previous, 'archived', 'Archived by its publisher');
  return jsonb_build_object('id', p_source_id, 'status', 'archived');
end
$$;
comment on function public.archive_audience_source(uuid) is
  'Publishers retire a source: its link stops earning, its history stays (clicks, subscriptions and earnings are evidence).';
revoke execute on function public.archive_audience_source(uuid) from public, anon, authenticated;
grant execute on function public.archive_audience_source(uuid) to authenticated;

create function public.archive_campaign(p_campaign_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  previous text;
begin
  select status into previous from public.campaigns
    where id = p_campaign_id and advertiser_id = (select auth.uid()) for update;
  if not found then
    raise exception 'You can only archive your own campaigns' using errcode = '42501';
  end if;
  update public.campaigns set status = 'archived' where id = p_campaign_id;
  perform public.log_moderation_event('campaign', p_campaign_id, previous, 'archived', 'Archived by its advertiser');
  return jsonb_build_object('id', p_campaign_id, 'status', 'archived');
end
$$;
comment on function public.archive_campaign(uuid) is
  'Advertisers retire a campaign: no new subscribers; reservations already made are honoured; history stays.';
revoke execute on function public.archive_campaign(uuid) from public, anon, authenticated;
grant execute on function public.archive_campaign(uuid) to authenticated;

-- A delete that would take evidence with it is refused with a message that says what to do instead.
create function private.refuse_deleting_evidence()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
comment on function private.refuse_deleting_evidence() is 'Trigger: sources and campaigns with activity are archived, never deleted.';
revoke execute on function private.refuse_deleting_evidence() from public, anon, authenticated, service_role;
create trigger audience_sources_refuse_deleting_evidence before delete on public.audience_sources
  for each row execute function private.refuse_deleting_evidence();
create trigger campaigns_refuse_deleting_evidence before delete on public.campaigns
  for each row execute function private.refuse_deleting_evidence();

-- The same rule as foreign keys, so no path (a cascade from a deleted user included) removes evidence.
alter table public.link_clicks drop constraint link_clicks_audience_source_id_fkey,
  add constraint link_clicks_audience_source_id_fkey foreign key (audience_source_id)
    references public.audience_sources (id) on delete restrict;
alter table public.link_clicks drop constraint link_clicks_campaign_id_fkey,
  add constraint link_clicks_campaign_id_fkey foreign key (campaign_id) references public.campaigns (id) on delete restrict;
alter table public.newsletter_subscriptions drop constraint newsletter_subscriptions_audience_source_id_fkey,
  add constraint newsletter_subscriptions_audience_source_id_fkey foreign key (audience_source_id)
    references public.audience_sources (id) on delete restrict;
alter table public.newsletter_subscriptions drop constraint newsletter_subscriptions_campaign_id_fkey,
  add constraint newsletter_subscriptions_campaign_id_fkey foreign key (campaign_id)
    references public.campaigns (id) on delete restrict;
alter table public.campaign_source_stats drop constraint campaign_source_stats_audience_source_id_fkey,
  add constraint campaign_source_stats_audience_source_id_fkey foreign key (audience_source_id)
    references public.audience_sources (id) on delete restrict;
alter table public.campaign_source_stats drop constraint campaign_source_stats_campaign_id_fkey,
  add constraint campaign_source_stats_campaign_id_fkey foreign key (campaign_id)
    references public.campaigns (id) on delete restrict;
alter table public.wallet_transactions drop constraint wallet_transactions_campaign_id_fkey,
  add constraint wallet_transactions_campaign_id_fkey foreign key (campaign_id) references public.campaigns (id) on delete restrict;
alter table public.wallet_transactions drop constraint wallet_transactions_subscription_id_fkey,
  add constraint wallet_transactions_subscription_id_fkey foreign key (subscription_id)
    references public.newsletter_subscriptions (id) on delete restrict;
