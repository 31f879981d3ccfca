-- Profiles: one per auth user, created by a trigger on auth.users. The user type comes from the signup
-- metadata (advertiser or publisher only); nobody makes themselves admin. Emails are never public:
-- the API roles may read every column except email (column-level grants), so the SPA's embed
-- `profiles!campaigns_advertiser_id_fkey(full_name)` works for visitors without exposing anyone's address.

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  user_type text not null default 'advertiser' check (user_type in ('advertiser', 'publisher', 'admin')),
  email extensions.citext,
  full_name text check (char_length(full_name) <= 200),
  first_name text check (char_length(first_name) <= 100),
  last_name text check (char_length(last_name) <= 100),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.profiles is
  'One row per user: the user type that decides the dashboard, and the names shown in the app. Email is readable only by the owner''s session claims, admins (admin_list_users) and the service role.';
create index profiles_user_type_idx on public.profiles (user_type);

alter table public.profiles enable row level security;

-- Email stays out of reach of the API roles; every other column is readable where a policy allows the row.
revoke select, insert, update on public.profiles from anon, authenticated;
grant select (id, user_type, full_name, first_name, last_name, created_at, updated_at) on public.profiles to anon, authenticated;
grant insert (id, user_type, full_name, first_name, last_name) on public.profiles to authenticated;
grant update (full_name, first_name, last_name) on public.profiles to authenticated;

create function public.is_admin()
returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.profiles where id = (select auth.uid()) and user_type = 'admin'
  )
$$;
comment on function public.is_admin() is
  'Whether the calling user is an admin. Definer so that policies on profiles can use it without recursion.';
revoke execute on function public.is_admin() from public, anon, authenticated;
grant execute on function public.is_admin() to anon, authenticated, service_role;

create function public.current_user_type()
returns text
language sql stable
security definer
set search_path = ''
as $$
  select user_type from public.profiles where id = (select auth.uid())
$$;
comment on function public.current_user_type() is
  'The caller''s user type, for policies on other tables (definer: reading profiles there would recurse through its policies).';
revoke execute on function public.current_user_type() from public, anon, authenticated;
grant execute on function public.current_user_type() to authenticated, service_role;

create policy "Users can read their own profile"
  on public.profiles for select to authenticated
  using ((select auth.uid()) = id);

create policy "Admins can read every profile"
  on public.profiles for select to authenticated
  using ((select public.is_admin()));

-- The policies that let anyone read advertisers with an active campaign live in the campaigns migration.

create policy "Users can create their own profile"
  on public.profiles for insert to authenticated
  with check ((select auth.uid()) = id and user_type in ('advertiser', 'publisher'));

create policy "Users can update their own profile"
  on public.profiles for update to authenticated
  using ((select auth.uid()) = id)
  with check ((select auth.uid()) = id);

-- id, email and user_type never change through the API: email follows auth.users, user_type changes
-- only through admin_set_user_type (a definer function, so current_user is not an API role there).
create function public.guard_profile_columns()
returns trigger
language plpgsql
set search_path = ''
as $$
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
$$;
comment on function public.guard_profile_columns() is 'Keeps id, email and user_type immutable for browser code.';
revoke execute on function public.guard_profile_columns() from public, anon, authenticated;

create trigger profiles_guard_columns before update on public.profiles
  for each row execute function public.guard_profile_columns();
create trigger profiles_set_updated_at before update on public.profiles
  for each row execute function public.set_updated_at();

-- A profile inserted by the API (the SPEC's upsert fallback) takes its email from auth.users, never from the body.
create function public.fill_profile_email()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if public.is_api_caller() then
    select u.email into new.email from auth.users u where u.id = new.id;
  end if;
  return new;
end
$$;
comment on function public.fill_profile_email() is 'Profiles inserted through the API get the email of their auth user.';
revoke execute on function public.fill_profile_email() from public, anon, authenticated;

create trigger profiles_fill_email before insert on public.profiles
  for each row execute function public.fill_profile_email();

create function public.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
comment on function public.handle_new_user() is
  'Creates the profile of a new auth user; only advertiser or publisher can be requested, anything else is advertiser.';
revoke execute on function public.handle_new_user() from public, anon, authenticated;

create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();

create function public.handle_user_email_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.profiles set email = new.email where id = new.id;
  return new;
end
$$;
comment on function public.handle_user_email_change() is 'Keeps profiles.email equal to the confirmed auth email.';
revoke execute on function public.handle_user_email_change() from public, anon, authenticated;

create trigger on_auth_user_email_changed after update of email on auth.users
  for each row when (new.email is distinct from old.email)
  execute function public.handle_user_email_change();
