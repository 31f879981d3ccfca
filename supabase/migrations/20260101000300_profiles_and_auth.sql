-- Baseline, profiles and auth: one profile per auth user, user types, admins and their audit log, revisions reviewed by admins.
--
-- One of the 13 files that replaced the 38 migrations of January 2026 (none had been applied to a hosted
-- database; docs/decisions.md), rendered from the schema they built with the changes listed in
-- supabase/tests/helpers/squash-changes.ts; supabase/tests/schema.test.ts proves everything else equal. The
-- history goes on in new migrations after these; the current state is read in supabase/schemas/.

-- === Tables ==============================================================================================

create table public.profiles (
  id uuid not null,
  user_type text default 'advertiser'::text not null,
  email extensions.citext,
  full_name text,
  first_name text,
  last_name text,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint profiles_pkey primary key (id),
  constraint profiles_first_name_check check ((char_length(first_name) <= 100)),
  constraint profiles_full_name_check check ((char_length(full_name) <= 200)),
  constraint profiles_last_name_check check ((char_length(last_name) <= 100)),
  constraint profiles_user_type_check check ((user_type = any ((enum_range(null::public.user_type))::text[]))),
  constraint profiles_id_fkey foreign key (id) references auth.users(id) on delete cascade
);
alter table public.profiles enable row level security;
create index profiles_user_type_idx on public.profiles using btree (user_type);
comment on table public.profiles is 'One row per user: the user type that decides the dashboard, and the names shown in the app. Email is readable only by the owner''s session claims, admins (admin_list_users) and the service role.';
revoke select, insert, update, delete, truncate, references, trigger on table public.profiles from anon, authenticated;
revoke truncate, references, trigger on table public.profiles from service_role;
grant insert (id, user_type, full_name, first_name, last_name) on public.profiles to authenticated;
grant select (id, user_type, full_name, first_name, last_name, created_at, updated_at) on public.profiles to anon;
grant select (id, user_type, full_name, first_name, last_name, created_at, updated_at) on public.profiles to authenticated;
grant update (full_name, first_name, last_name) on public.profiles to authenticated;

create table public.moderation_events (
  id uuid default gen_random_uuid() not null,
  actor_id uuid,
  subject_type text not null,
  subject_id uuid not null,
  old_status text,
  new_status text,
  reason text,
  created_at timestamp with time zone default now() not null,
  constraint moderation_events_pkey primary key (id),
  constraint moderation_events_reason_check check ((char_length(reason) <= 1000)),
  constraint moderation_events_subject_type_check check ((subject_type = any (array['audience_source'::text, 'campaign'::text, 'profile'::text, 'subscription'::text, 'payout_request'::text, 'dispute'::text]))),
  constraint moderation_events_actor_id_fkey foreign key (actor_id) references public.profiles(id) on delete set null
);
alter table public.moderation_events enable row level security;
create index moderation_events_actor_idx on public.moderation_events using btree (actor_id);
create index moderation_events_created_at_idx on public.moderation_events using btree (created_at desc);
create index moderation_events_subject_idx on public.moderation_events using btree (subject_type, subject_id, created_at desc);
comment on table public.moderation_events is 'Audit log: who changed which subject from which status to which, and why. Append-only, admins read it.';
revoke insert, update, delete, truncate, references, trigger on table public.moderation_events from anon, authenticated;
revoke truncate, references, trigger on table public.moderation_events from service_role;

-- === Functions ===========================================================================================

create function public.admin_audit_log(p_limit integer default 25, p_offset integer default 0, p_subject_type text default null::text)
 returns table(id uuid, created_at timestamp with time zone, actor_name text, subject_type text, subject_id uuid, subject_name text, old_status text, new_status text, reason text, total_count bigint)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_admin();
  return query
  select e.id, e.created_at,
    coalesce(nullif(a.full_name, ''), a.email::text, 'System'),
    e.subject_type, e.subject_id,
    coalesce(case e.subject_type
      when 'audience_source' then (select s.name from public.audience_sources s where s.id = e.subject_id)
      when 'campaign' then (select c.name from public.campaigns c where c.id = e.subject_id)
      when 'profile' then (select coalesce(nullif(p.full_name, '') || ' (' || p.email || ')', p.email::text) from public.profiles p where p.id = e.subject_id)
      when 'subscription' then (select n.email || ' → ' || c.name from public.newsletter_subscriptions n
                                join public.campaigns c on c.id = n.campaign_id where n.id = e.subject_id)
      when 'payout_request' then (select to_char(r.amount, 'FM999999990.00') || ' credits to ' || coalesce(nullif(p.full_name, ''), p.email::text)
                                  from public.payout_requests r join public.profiles p on p.id = r.publisher_id where r.id = e.subject_id)
      when 'dispute' then (select coalesce(nullif(p.full_name, ''), p.email::text) || ' about ' || s.name
                           from public.disputes d join public.profiles p on p.id = d.advertiser_id
                           join public.audience_sources s on s.id = d.audience_source_id where d.id = e.subject_id)
    end, '(deleted)'),
    e.old_status, e.new_status, e.reason,
    count(*) over ()
  from public.moderation_events e
  left join public.profiles a on a.id = e.actor_id
  where p_subject_type is null or e.subject_type = p_subject_type
  order by e.created_at desc, e.id
  limit least(greatest(coalesce(p_limit, 25), 1), 100) offset greatest(coalesce(p_offset, 0), 0);
end
$function$;
comment on function public.admin_audit_log(p_limit integer, p_offset integer, p_subject_type text) is 'Admins: the audit log with names (actor, subject) instead of ids, newest first, paginated; total_count is the size of the whole (filtered) log.';
revoke execute on function public.admin_audit_log(p_limit integer, p_offset integer, p_subject_type text) from anon, public;

create function public.admin_list_users(p_search text default null::text, p_limit integer default 50, p_offset integer default 0)
 returns table(id uuid, email text, user_type text, full_name text, created_at timestamp with time zone)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_admin();
  return query
    select p.id, p.email::text, p.user_type, p.full_name, p.created_at
    from public.profiles p
    where p_search is null or p.email ilike '%' || p_search || '%' or p.full_name ilike '%' || p_search || '%'
    order by p.created_at desc
    limit least(greatest(p_limit, 1), 200) offset greatest(p_offset, 0);
end
$function$;
comment on function public.admin_list_users(p_search text, p_limit integer, p_offset integer) is 'The admin users screen: emails are not readable through the profiles table, so admins list them here.';
revoke execute on function public.admin_list_users(p_search text, p_limit integer, p_offset integer) from anon, public;

create function public.admin_set_user_type(p_user_id uuid, p_user_type text, p_reason text default null::text)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  previous text;
begin
  perform private.require_admin();
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
  perform private.log_moderation_event('profile', p_user_id, previous, p_user_type, p_reason);
end
$function$;
comment on function public.admin_set_user_type(p_user_id uuid, p_user_type text, p_reason text) is 'The only way a user type changes: admins only, written to the audit log.';
revoke execute on function public.admin_set_user_type(p_user_id uuid, p_user_type text, p_reason text) from anon, public;

create function public.current_user_type()
 returns text
 language sql
 stable security definer
 set search_path to ''
as $function$
  select user_type from public.profiles where id = (select auth.uid())
$function$;
comment on function public.current_user_type() is 'The caller''s user type, for policies on other tables (definer: reading profiles there would recurse through its policies).';
revoke execute on function public.current_user_type() from anon, public;

create function public.fill_profile_email()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if public.is_api_caller() then
    select u.email into new.email from auth.users u where u.id = new.id;
  end if;
  return new;
end
$function$;
comment on function public.fill_profile_email() is 'Profiles inserted through the API get the email of their auth user.';
revoke execute on function public.fill_profile_email() from anon, authenticated, public;

create function public.guard_profile_columns()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  if public.is_api_caller() then
    if new.id is distinct from old.id then
      raise exception 'A profile id cannot be changed' using errcode = '42501';
    end if;
    if new.user_type is distinct from old.user_type then
      raise exception 'Only an admin can change a user type' using errcode = '42501';
    end if;
    if new.email is distinct from old.email then
      raise exception 'Change your email from your account settings' using errcode = '42501';
    end if;
  end if;
  return new;
end
$function$;
comment on function public.guard_profile_columns() is 'Keeps id, email and user_type immutable for browser code.';
revoke execute on function public.guard_profile_columns() from anon, authenticated, public;

create function public.handle_new_user()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  requested text := meta ->> 'user_type';
begin
  insert into public.profiles (id, user_type, email, full_name, first_name, last_name)
  values (
    new.id,
    case when requested in ('advertiser', 'publisher') then requested else 'advertiser' end,
    new.email,
    left(coalesce(meta ->> 'full_name', nullif(trim(concat_ws(' ', meta ->> 'first_name', meta ->> 'last_name')), '')), 200),
    left(meta ->> 'first_name', 100),
    left(meta ->> 'last_name', 100)
  )
  on conflict (id) do nothing;
  return new;
end
$function$;
comment on function public.handle_new_user() is 'Creates the profile of a new auth user; only advertiser or publisher can be requested, anything else is advertiser.';
revoke execute on function public.handle_new_user() from anon, authenticated, public;

create function public.handle_user_email_change()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  update public.profiles set email = new.email where id = new.id;
  return new;
end
$function$;
comment on function public.handle_user_email_change() is 'Keeps profiles.email equal to the confirmed auth email.';
revoke execute on function public.handle_user_email_change() from anon, authenticated, public;

create function public.is_admin()
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select private.session_aal() = 'aal2'
     and exists (select 1 from public.profiles where id = (select auth.uid()) and user_type = 'admin')
     and public.session_is_live()
$function$;
comment on function public.is_admin() is 'Whether the caller is an admin in a live two-factor (aal2) session. Every admin policy and admin function relies on it, so an admin signed in with the password alone, or whose session ended, has no admin rights.';
revoke execute on function public.is_admin() from public;

create function public.is_admin_account()
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select exists (select 1 from public.profiles where id = (select auth.uid()) and user_type = 'admin')
$function$;
comment on function public.is_admin_account() is 'Whether the caller''s account is an admin account, whatever the session''s assurance level (the SPA uses it to ask for the second factor).';
revoke execute on function public.is_admin_account() from anon, public;

create function private.log_moderation_event(p_subject_type text, p_subject_id uuid, p_old_status text, p_new_status text, p_reason text)
 returns void
 language sql
 security definer
 set search_path to ''
as $function$
  insert into public.moderation_events (actor_id, subject_type, subject_id, old_status, new_status, reason)
  values ((select auth.uid()), p_subject_type, p_subject_id, p_old_status, p_new_status, nullif(trim(p_reason), ''))
$function$;
comment on function private.log_moderation_event(p_subject_type text, p_subject_id uuid, p_old_status text, p_new_status text, p_reason text) is 'Appends one audit row; called by the admin and money functions, never by the API.';
revoke execute on function private.log_moderation_event(p_subject_type text, p_subject_id uuid, p_old_status text, p_new_status text, p_reason text) from public;

create function private.require_admin()
 returns void
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_live_session();
  if public.is_admin() then
    return;
  end if;
  if public.is_admin_account() then
    raise exception 'Enter your two-factor code to use admin tools' using errcode = '42501',
      hint = 'Admins need a verified authenticator app and a session signed in with its code (aal2).';
  end if;
  raise exception 'Only an admin can do this' using errcode = '42501';
end
$function$;
comment on function private.require_admin() is 'Raises unless the caller is an admin in a live aal2 session; the first line of every admin function.';
revoke execute on function private.require_admin() from public;

-- === Triggers ============================================================================================

create trigger on_auth_user_created after insert on auth.users for each row execute function public.handle_new_user();

create trigger on_auth_user_email_changed after update of email on auth.users for each row when (((new.email)::text is distinct from (old.email)::text)) execute function public.handle_user_email_change();

create trigger profiles_fill_email before insert on public.profiles for each row execute function public.fill_profile_email();

create trigger profiles_guard_columns before update on public.profiles for each row execute function public.guard_profile_columns();

create trigger profiles_set_updated_at before update on public.profiles for each row execute function public.set_updated_at();

-- === Row-level security policies =========================================================================

create policy "Admins can read the audit log" on public.moderation_events
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Admins read the audit log only with two factors" on public.moderation_events as restrictive
  for select to authenticated
  using ((( select (auth.jwt() ->> 'aal'::text)) = 'aal2'::text));
