-- A per-newsletter landing page that sells (issue 38): what the advertiser tells about the newsletter — a sample issue
-- link, how often it goes out, how many readers it has and one line on who it is for — edited in the newsletter form
-- and shown on /newsletters/{id}.
--
-- The four are public fields like name, description, image and URL: after approval an edit from the API becomes a
-- pending revision (divert_public_edits → submit_revision) and goes live only when an admin approves that version
-- (admin_decide_revision). The three functions are main's latest bodies (20260101000600 and 20260510000100) with the
-- four fields added to their lists; nothing else changes in them.
--
-- Validation: the check constraints are the last word; private.require_newsletter_facts says the same rules as
-- sentences, before a row is written (trigger) and before a revision is stored (submit_revision), so a proposal an
-- admin could never approve is refused when it is made, not when it is approved.

-- === Vocabulary ============================================================================================

create type public.newsletter_frequency as enum ('daily', 'several_a_week', 'weekly', 'every_two_weeks', 'monthly');
comment on type public.newsletter_frequency is 'How often a newsletter goes out, as its advertiser states it on the newsletter form: daily, several a week, weekly, every two weeks or monthly.';

-- === Columns ===============================================================================================

alter table public.campaigns
  add column sample_issue_url text
    constraint campaigns_sample_issue_url_check
    check (char_length(sample_issue_url) <= 2048 and sample_issue_url ~* '^https://[^[:space:]]+\.[^[:space:]]+$'),
  add column frequency text
    constraint campaigns_frequency_check check (frequency = any ((enum_range(null::public.newsletter_frequency))::text[])),
  add column audience_size integer
    constraint campaigns_audience_size_check check (audience_size between 0 and 100000000),
  add column audience_line text
    constraint campaigns_audience_line_check check (char_length(trim(audience_line)) between 1 and 160);

comment on column public.campaigns.sample_issue_url is 'A past issue readers can open before subscribing (https only, at most 2,048 characters). Public; after approval a change is a revision.';
comment on column public.campaigns.frequency is 'How often it goes out (newsletter_frequency). Public; after approval a change is a revision.';
comment on column public.campaigns.audience_size is 'Readers the advertiser says it has (0 to 100,000,000), as stated, not measured. Public; after approval a change is a revision.';
comment on column public.campaigns.audience_line is 'One line on who it is for (1–160 characters, or none). Public; after approval a change is a revision.';

grant insert (sample_issue_url, frequency, audience_size, audience_line) on public.campaigns to authenticated;
grant update (sample_issue_url, frequency, audience_size, audience_line) on public.campaigns to authenticated;

-- === The rules as sentences ================================================================================

create function private.require_newsletter_facts(p_values jsonb)
 returns void
 language plpgsql
 stable
 set search_path to ''
as $function$
declare
  v_url text := p_values ->> 'sample_issue_url';
  v_frequency text := p_values ->> 'frequency';
  v_size text := p_values ->> 'audience_size';
  v_line text := p_values ->> 'audience_line';
begin
  if v_url is not null and (char_length(v_url) > 2048 or v_url !~* '^https://[^[:space:]]+\.[^[:space:]]+$') then
    raise exception 'The sample issue link must be a full address starting with https:// (at most 2,048 characters)'
      using errcode = '23514';
  end if;
  if v_frequency is not null and not (v_frequency = any ((enum_range(null::public.newsletter_frequency))::text[])) then
    raise exception 'Choose how often the newsletter goes out: daily, several a week, weekly, every two weeks or monthly'
      using errcode = '23514';
  end if;
  if v_size is not null and (v_size !~ '^[0-9]{1,9}$' or v_size::bigint > 100000000) then
    raise exception 'Audience size must be a whole number from 0 to 100,000,000' using errcode = '23514';
  end if;
  if v_line is not null and char_length(trim(v_line)) not between 1 and 160 then
    raise exception 'Say who the newsletter is for in at most 160 characters, or leave it empty' using errcode = '23514';
  end if;
end
$function$;
comment on function private.require_newsletter_facts(p_values jsonb) is 'Refuses a sample issue link, frequency, audience size or audience line the campaigns check constraints would refuse, with a sentence; used by the campaigns trigger and by submit_revision.';
revoke execute on function private.require_newsletter_facts(p_values jsonb) from public, anon, authenticated;

-- Security definer: the row's writer (authenticated) may not call private functions; this one only reads NEW.
create function private.check_newsletter_facts()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  perform private.require_newsletter_facts(to_jsonb(new));
  return new;
end
$function$;
comment on function private.check_newsletter_facts() is 'Trigger: a campaign''s landing-page facts read as sentences when refused. Named so it fires before campaigns_divert_public_edits, so a diverted edit is checked too.';
revoke execute on function private.check_newsletter_facts() from public, anon, authenticated;

create trigger campaigns_check_newsletter_facts
  before insert or update of sample_issue_url, frequency, audience_size, audience_line on public.campaigns
  for each row execute function private.check_newsletter_facts();

-- === The revision flow =====================================================================================

create or replace function public.divert_public_edits()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
declare
  fields text[] := case when tg_table_name = 'campaigns'
    then array['name', 'description', 'image_url', 'website_url', 'category',
      'sample_issue_url', 'frequency', 'audience_size', 'audience_line']
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
comment on function public.divert_public_edits() is 'Trigger: after approval, edits of public fields from the API (campaigns also sample issue link, frequency, audience size and line) become a pending revision; the approved values stay live.';
revoke execute on function public.divert_public_edits() from anon, authenticated, public;

create or replace function public.submit_revision(p_subject_type text, p_subject_id uuid, p_changes jsonb)
 returns uuid
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  allowed text[] := case p_subject_type
    when 'campaign' then array['name', 'description', 'image_url', 'website_url', 'category',
      'sample_issue_url', 'frequency', 'audience_size', 'audience_line']
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
  if p_subject_type = 'campaign' then
    -- A proposal an admin could never approve is refused now, in the owner's words.
    perform private.require_newsletter_facts(diff);
  end if;
  -- One pending revision per subject. An edit that changes what it proposes is a new version, so a decision on the
  -- version an admin read before it is refused; the same change sent again (a form saved twice) is not.
  insert into public.content_revisions as r (subject_type, subject_id, author_id, changes)
  values (p_subject_type, p_subject_id, owner, diff)
  on conflict (subject_type, subject_id) where status = 'pending'
  do update set changes = r.changes || excluded.changes, version = r.version + 1, updated_at = now()
    where r.changes || excluded.changes <> r.changes
  returning id into revision_id;
  if revision_id is null then
    -- The conflicting row, locked by the insert above, proposes this already.
    select r.id into revision_id from public.content_revisions r
      where r.subject_type = p_subject_type and r.subject_id = p_subject_id and r.status = 'pending';
  end if;
  return revision_id;
end
$function$;
comment on function public.submit_revision(p_subject_type text, p_subject_id uuid, p_changes jsonb) is 'Owners propose changes to an approved source''s or campaign''s public fields (a campaign''s also sample issue link, frequency, audience size and line); an admin reviews them. Edits through the table land here too. A second edit merges into the pending revision as its next version.';
revoke execute on function public.submit_revision(p_subject_type text, p_subject_id uuid, p_changes jsonb) from public, anon;
grant execute on function public.submit_revision(p_subject_type text, p_subject_id uuid, p_changes jsonb) to authenticated, service_role;

create or replace function public.admin_decide_revision(p_revision_id uuid, p_version integer, p_decision text, p_note text default null::text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  r public.content_revisions;
  previous text;
  subject_name text;
begin
  perform private.require_admin();
  if p_decision is null or p_decision not in ('approved', 'rejected') then
    raise exception 'Choose approve or reject' using errcode = '22023';
  end if;
  if p_decision = 'rejected' and coalesce(trim(p_note), '') = '' then
    raise exception 'Give a reason when rejecting' using errcode = '22023';
  end if;
  if char_length(p_note) > 1000 then
    raise exception 'Keep the note under 1,000 characters' using errcode = '22023';
  end if;
  if p_version is null then
    raise exception 'Say which version of the change you reviewed' using errcode = '22023';
  end if;
  -- The row lock orders this decision with the owner's edits (submit_revision's upsert locks the same row): an edit
  -- committed first raises the version and is refused below; one that waits for this decision finds the revision
  -- decided and starts a new pending one, which needs its own review.
  select * into r from public.content_revisions where id = p_revision_id for update;
  if not found then
    raise exception 'Revision not found' using errcode = 'P0002';
  end if;
  if r.status <> 'pending' then
    raise exception 'This revision was already decided' using errcode = '22023';
  end if;
  if r.version <> p_version then
    raise exception 'This change was edited after you opened it. Review the new version.' using errcode = 'PT409',
      detail = format('You read version %s; version %s is waiting now.', p_version, r.version);
  end if;
  if r.subject_type = 'campaign' then
    select c.name into subject_name from public.campaigns c where c.id = r.subject_id;
  else
    select s.name into subject_name from public.audience_sources s where s.id = r.subject_id;
  end if;
  if p_decision = 'approved' then
    if r.subject_type = 'campaign' then
      update public.campaigns c set
        name = coalesce(r.changes ->> 'name', c.name),
        description = case when r.changes ? 'description' then r.changes ->> 'description' else c.description end,
        image_url = case when r.changes ? 'image_url' then r.changes ->> 'image_url' else c.image_url end,
        website_url = case when r.changes ? 'website_url' then r.changes ->> 'website_url' else c.website_url end,
        category = case when r.changes ? 'category' then r.changes ->> 'category' else c.category end,
        sample_issue_url = case when r.changes ? 'sample_issue_url' then r.changes ->> 'sample_issue_url' else c.sample_issue_url end,
        frequency = case when r.changes ? 'frequency' then r.changes ->> 'frequency' else c.frequency end,
        audience_size = case when r.changes ? 'audience_size' then (r.changes ->> 'audience_size')::integer else c.audience_size end,
        audience_line = case when r.changes ? 'audience_line' then r.changes ->> 'audience_line' else c.audience_line end
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
  perform private.log_moderation_event(r.subject_type, r.subject_id, 'revision pending', 'revision ' || p_decision,
    p_note);
  perform private.enqueue_notification(r.author_id, 'revision_decided',
    jsonb_build_object('subject_type', r.subject_type, 'name', subject_name, 'decision', p_decision,
      'note', nullif(trim(p_note), ''), 'fields', (select jsonb_agg(k order by k) from jsonb_object_keys(r.changes) k)),
    'revision_decided:' || r.id);
  return jsonb_build_object('id', r.id, 'status', p_decision, 'version', r.version);
end
$function$;
comment on function public.admin_decide_revision(p_revision_id uuid, p_version integer, p_decision text, p_note text) is 'Admins approve (apply) or reject the version of a pending revision they read, with a note; a version edited since is refused (PT409) and nothing applies. Audit-logged, and the owner is emailed (revision_decided).';
revoke execute on function public.admin_decide_revision(p_revision_id uuid, p_version integer, p_decision text, p_note text) from public, anon;
grant execute on function public.admin_decide_revision(p_revision_id uuid, p_version integer, p_decision text, p_note text) to authenticated, service_role;
