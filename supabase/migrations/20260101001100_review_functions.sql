-- Admin review of sources and campaigns: approve, reject, ban, pause, with a reason kept in the audit log.

create function public.admin_set_source_status(p_source_id uuid, p_status text, p_reason text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  previous text;
begin
  perform public.require_admin();
  if p_status is null or p_status not in ('approved', 'live', 'verified', 'pending', 'pending_review', 'under_review', 'rejected', 'banned') then
    raise exception 'Unknown source status' using errcode = '22023';
  end if;
  if p_status in ('rejected', 'banned') and coalesce(trim(p_reason), '') = '' then
    raise exception 'Give a reason when rejecting or banning' using errcode = '22023';
  end if;
  select status into previous from public.audience_sources where id = p_source_id for update;
  if not found then
    raise exception 'Source not found' using errcode = 'P0002';
  end if;
  update public.audience_sources set status = p_status, review_note = nullif(trim(p_reason), '') where id = p_source_id;
  perform public.log_moderation_event('audience_source', p_source_id, previous, p_status, p_reason);
  return jsonb_build_object('id', p_source_id, 'status', p_status);
end
$$;
comment on function public.admin_set_source_status(uuid, text, text) is 'Admins review sources; the reason becomes the publisher-visible review note and is audit-logged.';
revoke execute on function public.admin_set_source_status(uuid, text, text) from public, anon, authenticated;
grant execute on function public.admin_set_source_status(uuid, text, text) to authenticated, service_role;

create function public.admin_set_campaign_status(p_campaign_id uuid, p_status text, p_reason text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  previous text;
begin
  perform public.require_admin();
  if p_status is null or p_status not in ('draft', 'pending_review', 'active', 'paused', 'rejected', 'completed') then
    raise exception 'Unknown campaign status' using errcode = '22023';
  end if;
  if p_status = 'rejected' and coalesce(trim(p_reason), '') = '' then
    raise exception 'Give a reason when rejecting' using errcode = '22023';
  end if;
  select status into previous from public.campaigns where id = p_campaign_id for update;
  if not found then
    raise exception 'Campaign not found' using errcode = 'P0002';
  end if;
  update public.campaigns set status = p_status, review_note = nullif(trim(p_reason), '') where id = p_campaign_id;
  perform public.log_moderation_event('campaign', p_campaign_id, previous, p_status, p_reason);
  return jsonb_build_object('id', p_campaign_id, 'status', p_status);
end
$$;
comment on function public.admin_set_campaign_status(uuid, text, text) is 'Admins review campaigns; the reason becomes the advertiser-visible review note and is audit-logged.';
revoke execute on function public.admin_set_campaign_status(uuid, text, text) from public, anon, authenticated;
grant execute on function public.admin_set_campaign_status(uuid, text, text) to authenticated, service_role;
