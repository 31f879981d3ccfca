-- Extensions and small shared helpers every later migration relies on.
-- Hosted Supabase keeps extensions in schema `extensions`; so do we, and we always qualify their names.

create extension if not exists citext with schema extensions;
create extension if not exists pgcrypto with schema extensions;

-- Private state (the daily-salt secret) lives outside the schemas the API exposes.
create schema if not exists private;
revoke all on schema private from public, anon, authenticated;

-- `if not exists`: a reset that drops only the API schemas keeps this one, and its secret.
create table if not exists private.settings (
  id boolean primary key default true check (id),
  visitor_salt_secret bytea not null default extensions.gen_random_bytes(32)
);
comment on table private.settings is
  'Server-side secrets the API never exposes; one row. The visitor-hash salt is derived from it per day.';
insert into private.settings default values on conflict (id) do nothing;

create function public.is_source_public(status text)
returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select coalesce(status in ('approved', 'verified', 'live'), false)
$$;
comment on function public.is_source_public(text) is
  'The one validity rule for audience sources: the statuses the directory shows are exactly the ones a magic link accepts.';
revoke execute on function public.is_source_public(text) from public;
grant execute on function public.is_source_public(text) to anon, authenticated, service_role;

create function public.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;
comment on function public.set_updated_at() is 'Keeps updated_at honest on every row update.';
revoke execute on function public.set_updated_at() from public, anon, authenticated;

create function public.fold_email(p_email text)
returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select lower(regexp_replace(p_email, '\+[^@]*@', '@'))
$$;
comment on function public.fold_email(text) is
  'Folds local+tag@domain to local@domain so one inbox counts once per campaign (duplicate_email rule).';
revoke execute on function public.fold_email(text) from public;
grant execute on function public.fold_email(text) to anon, authenticated, service_role;

-- Is the caller an API role (browser code) rather than a definer function or the service role?
-- Inside a security definer function current_user is the owner, so guards built on this let our
-- functions through while refusing the same change sent straight from the API.
create function public.is_api_caller()
returns boolean
language sql stable
set search_path = ''
as $$
  select current_user in ('anon', 'authenticated')
$$;
comment on function public.is_api_caller() is
  'True when the statement runs as anon or authenticated (not inside a definer function, not the service role).';
revoke execute on function public.is_api_caller() from public;
grant execute on function public.is_api_caller() to anon, authenticated, service_role;

-- Columns that identify what a row is about never change, whoever writes (API, service role, functions):
-- a ledger row keeps its owner, amount, type and reference forever. Column names come as trigger arguments.
create function public.forbid_column_changes()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  col text;
begin
  foreach col in array tg_argv loop
    if (to_jsonb(new) -> col) is distinct from (to_jsonb(old) -> col) then
      raise exception '% cannot be changed', col using errcode = '42501';
    end if;
  end loop;
  return new;
end
$$;
comment on function public.forbid_column_changes() is
  'Trigger: refuses any update that changes one of the columns named in the trigger arguments.';
revoke execute on function public.forbid_column_changes() from public, anon, authenticated;

