-- The audit log of every admin decision (source and campaign reviews, user type changes, refunds, payouts).
-- Written only by definer functions; read only by admins.

create table public.moderation_events (
  id uuid primary key default gen_random_uuid(),
  actor_id uuid references public.profiles (id) on delete set null,
  subject_type text not null check (subject_type in ('audience_source', 'campaign', 'profile', 'subscription', 'payout_request')),
  subject_id uuid not null,
  old_status text,
  new_status text,
  reason text check (char_length(reason) <= 1000),
  created_at timestamptz not null default now()
);
comment on table public.moderation_events is
  'Audit log: who changed which subject from which status to which, and why. Append-only, admins read it.';
create index moderation_events_subject_idx on public.moderation_events (subject_type, subject_id, created_at desc);
create index moderation_events_created_at_idx on public.moderation_events (created_at desc);
create index moderation_events_actor_idx on public.moderation_events (actor_id);

alter table public.moderation_events enable row level security;

create policy "Admins can read the audit log"
  on public.moderation_events for select to authenticated
  using ((select public.is_admin()));

create function public.log_moderation_event(
  p_subject_type text, p_subject_id uuid, p_old_status text, p_new_status text, p_reason text
)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.moderation_events (actor_id, subject_type, subject_id, old_status, new_status, reason)
  values ((select auth.uid()), p_subject_type, p_subject_id, p_old_status, p_new_status, nullif(trim(p_reason), ''))
$$;
comment on function public.log_moderation_event(text, uuid, text, text, text) is
  'Appends one audit row; called by the admin and money functions, never by the API.';
revoke execute on function public.log_moderation_event(text, uuid, text, text, text) from public, anon, authenticated, service_role;

create function public.require_admin()
returns void
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'Only an admin can do this' using errcode = '42501';
  end if;
end
$$;
comment on function public.require_admin() is 'Raises unless the caller is an admin; the first line of every admin function.';
revoke execute on function public.require_admin() from public, anon, authenticated, service_role;

create function public.admin_set_user_type(p_user_id uuid, p_user_type text, p_reason text default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  previous text;
begin
  perform public.require_admin();
  if p_user_type is null or p_user_type not in ('advertiser', 'publisher', 'admin') then
    raise exception 'Choose advertiser, publisher or admin' using errcode = '22023';
  end if;
  select user_type into previous from public.profiles where id = p_user_id for update;
  if not found then
    raise exception 'User not found' using errcode = 'P0002';
  end if;
  if p_user_id = (select auth.uid()) and p_user_type <> 'admin' then
    raise exception 'Admins cannot remove their own admin rights' using errcode = '42501';
  end if;
  update public.profiles set user_type = p_user_type where id = p_user_id;
  perform public.log_moderation_event('profile', p_user_id, previous, p_user_type, p_reason);
end
$$;
comment on function public.admin_set_user_type(uuid, text, text) is
  'The only way a user type changes: admins only, written to the audit log.';
revoke execute on function public.admin_set_user_type(uuid, text, text) from public, anon, authenticated;
grant execute on function public.admin_set_user_type(uuid, text, text) to authenticated, service_role;

create function public.admin_list_users(p_search text default null, p_limit integer default 50, p_offset integer default 0)
returns table (id uuid, email text, user_type text, full_name text, created_at timestamptz)
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  perform public.require_admin();
  return query
    select p.id, p.email::text, p.user_type, p.full_name, p.created_at
    from public.profiles p
    where p_search is null or p.email ilike '%' || p_search || '%' or p.full_name ilike '%' || p_search || '%'
    order by p.created_at desc
    limit least(greatest(p_limit, 1), 200) offset greatest(p_offset, 0);
end
$$;
comment on function public.admin_list_users(text, integer, integer) is
  'The admin users screen: emails are not readable through the profiles table, so admins list them here.';
revoke execute on function public.admin_list_users(text, integer, integer) from public, anon, authenticated;
grant execute on function public.admin_list_users(text, integer, integer) to authenticated, service_role;
