-- revisions: the admins' queue of pending revisions (old and new side by side), the owner emailed when one is
-- decided, and the owner's own pending text. admin_decide_revision existed but no screen could reach it.

alter table public.notification_queue drop constraint notification_queue_template_check;
alter table public.notification_queue add constraint notification_queue_template_check check (template = any (array[
  'source_reviewed', 'campaign_reviewed', 'low_balance', 'payout_paid', 'dispute_decided', 'deposit_receipt',
  'revision_decided']));

create or replace function public.admin_revisions(p_status text default 'pending')
 returns table(id uuid, subject_type text, subject_id uuid, subject_name text, subject_status text,
   owner_email text, changes jsonb, current_values jsonb, status text, review_note text, created_at timestamptz,
   decided_at timestamptz)
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
    r.status, r.review_note, r.created_at, r.decided_at
  from public.content_revisions r
  left join public.campaigns c on r.subject_type = 'campaign' and c.id = r.subject_id
  left join public.audience_sources s on r.subject_type = 'audience_source' and s.id = r.subject_id
  left join public.profiles p on p.id = r.author_id
  where r.status = p_status
  order by case when p_status = 'pending' then r.created_at end asc, r.decided_at desc nulls last
  limit 200;
end
$function$;
comment on function public.admin_revisions(p_status text) is 'Admins: revisions of sources and campaigns in one status (pending oldest first, decided newest first), each with the live values of the fields it changes, so old and new read side by side.';
revoke execute on function public.admin_revisions(p_status text) from anon, public;

create or replace function public.admin_decide_revision(p_revision_id uuid, p_decision text, p_note text default null::text)
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
  select * into r from public.content_revisions where id = p_revision_id for update;
  if not found then
    raise exception 'Revision not found' using errcode = 'P0002';
  end if;
  if r.status <> 'pending' then
    raise exception 'This revision was already decided' using errcode = '22023';
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
  perform private.log_moderation_event(r.subject_type, r.subject_id, 'revision pending', 'revision ' || p_decision, p_note);
  perform private.enqueue_notification(r.author_id, 'revision_decided',
    jsonb_build_object('subject_type', r.subject_type, 'name', subject_name, 'decision', p_decision,
      'note', nullif(trim(p_note), ''), 'fields', (select jsonb_agg(k order by k) from jsonb_object_keys(r.changes) k)),
    'revision_decided:' || r.id);
  return jsonb_build_object('id', r.id, 'status', p_decision);
end
$function$;
comment on function public.admin_decide_revision(p_revision_id uuid, p_decision text, p_note text) is 'Admins approve (apply) or reject a pending revision of a source or campaign, with a note; audit-logged, and the owner is emailed (revision_decided).';
revoke execute on function public.admin_decide_revision(p_revision_id uuid, p_decision text, p_note text) from anon, public;
