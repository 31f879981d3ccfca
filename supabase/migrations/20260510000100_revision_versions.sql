-- revisions: an admin decides the exact version of a change they read (issue 37, "A revision can change after the
-- admin read it").
--
-- The attack: an owner proposed a harmless rename; while an admin read it, the owner PATCHed again (a phishing name
-- and URL); submit_revision merged the second edit into the same pending revision, and admin_decide_revision,
-- given only the revision's id, published what the row held at that moment: what the admin never saw.
--
-- Now each revision carries a version, 1 when proposed, raised by every edit that changes what it proposes (an
-- identical re-save leaves it). admin_revisions returns it beside the changes; admin_decide_revision takes the
-- version the admin read and refuses any other with a sentence the admin can act on (HTTP 409 through PostgREST,
-- SQLSTATE PT409), applying nothing. The pending revision stays one row per subject, so the owner still sees one
-- "Changes waiting for review" with everything they proposed, and the admin sees the new version in its place.
--
-- The three-argument admin_decide_revision, which named no version, stays as a refusal (it writes nothing), so an
-- admin page loaded before this change says to reload instead of PostgREST's "Could not find the function".

alter table public.content_revisions add column version integer not null default 1;
alter table public.content_revisions add constraint content_revisions_version_check check (version >= 1);
comment on column public.content_revisions.version is 'Raised by each edit that changes what a pending revision proposes; an admin''s decision names the version it read, and any other is refused.';

create or replace function public.submit_revision(p_subject_type text, p_subject_id uuid, p_changes jsonb)
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
comment on function public.submit_revision(p_subject_type text, p_subject_id uuid, p_changes jsonb) is 'Owners propose changes to an approved source''s or campaign''s public fields; an admin reviews them. Edits through the table land here too. A second edit merges into the pending revision as its next version.';
revoke execute on function public.submit_revision(p_subject_type text, p_subject_id uuid, p_changes jsonb) from public, anon;
grant execute on function public.submit_revision(p_subject_type text, p_subject_id uuid, p_changes jsonb) to authenticated, service_role;

-- The queue returns each revision's version (and when it last changed), which the decision sends back.
drop function public.admin_revisions(text);
create function public.admin_revisions(p_status text default 'pending'::text)
 returns table(id uuid, subject_type text, subject_id uuid, subject_name text, subject_status text, owner_email text,
   changes jsonb, current_values jsonb, status text, review_note text, created_at timestamp with time zone,
   decided_at timestamp with time zone, version integer, updated_at timestamp with time zone)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_admin();
  if p_status is null or p_status not in ('pending', 'approved', 'rejected') then
    raise exception 'Show pending, approved or rejected revisions' using errcode = '22023';
  end if;
  return query
  select r.id, r.subject_type, r.subject_id, coalesce(c.name, s.name), coalesce(c.status, s.status),
    p.email::text, r.changes,
    -- The live value of each field the revision changes: what visitors see until it is approved.
    (select coalesce(jsonb_object_agg(k.key, coalesce(to_jsonb(c), to_jsonb(s)) -> k.key), '{}')
     from jsonb_object_keys(r.changes) k(key)),
    r.status, r.review_note, r.created_at, r.decided_at, r.version, r.updated_at
  from public.content_revisions r
  left join public.campaigns c on r.subject_type = 'campaign' and c.id = r.subject_id
  left join public.audience_sources s on r.subject_type = 'audience_source' and s.id = r.subject_id
  left join public.profiles p on p.id = r.author_id
  where r.status = p_status
  order by case when p_status = 'pending' then r.created_at end asc, r.decided_at desc nulls last
  limit 200;
end
$function$;
comment on function public.admin_revisions(p_status text) is 'Admins: revisions of sources and campaigns in one status (pending oldest first, decided newest first), each with the live values of the fields it changes, so old and new read side by side, and its version, which a decision names.';
revoke execute on function public.admin_revisions(p_status text) from public, anon;
grant execute on function public.admin_revisions(p_status text) to authenticated, service_role;

create function public.admin_decide_revision(p_revision_id uuid, p_version integer, p_decision text, p_note text default null::text)
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

-- The old call named no version: it would apply whatever the revision holds when it arrives. It refuses, writes
-- nothing and reads nothing (security invoker), so it needs no admin check of its own.
create or replace function public.admin_decide_revision(p_revision_id uuid, p_decision text, p_note text default null::text)
 returns jsonb
 language plpgsql
 security invoker
 set search_path to ''
as $function$
begin
  raise exception 'This page is out of date: reload it, review the change again and then decide.'
    using errcode = '22023', hint = 'admin_decide_revision now takes p_version, the version returned by admin_revisions.';
end
$function$;
comment on function public.admin_decide_revision(p_revision_id uuid, p_decision text, p_note text) is 'Refuses: a decision names the version it read (admin_decide_revision with p_version). Kept so an admin page loaded before that change is told to reload.';
revoke execute on function public.admin_decide_revision(p_revision_id uuid, p_decision text, p_note text) from public, anon;
grant execute on function public.admin_decide_revision(p_revision_id uuid, p_decision text, p_note text) to authenticated, service_role;
