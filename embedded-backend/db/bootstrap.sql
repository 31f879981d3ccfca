-- What hosted Supabase provides before any migration runs: the API roles, the auth schema with
-- Supabase's column names (so triggers on auth.users behave as in production), the auth helper
-- functions, the default grants, and the table where the Supabase CLI records applied migrations.
-- Idempotent: it runs on every start of the embedded backend, against PGlite or PostgreSQL.

-- The roles with hosted's attributes (supabase/postgres: init scripts and the migrations that followed them): the
-- API roles log in only through `authenticator`, the role PostgREST connects as (noinherit: it holds nothing until
-- it sets a role); GoTrue connects as `supabase_auth_admin`, which owns the auth tables on hosted. Attributes are
-- set again on every run, so a database made by an older bootstrap gets them too.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin bypassrls;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticator') then
    create role authenticator login noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'supabase_auth_admin') then
    create role supabase_auth_admin login noinherit createrole;
  end if;
end
$$;
alter role anon nologin inherit;
alter role authenticated nologin inherit;
alter role service_role nologin inherit bypassrls;
alter role authenticator login noinherit;
alter role supabase_auth_admin login noinherit createrole;
grant anon, authenticated, service_role to authenticator;
alter role authenticator set statement_timeout = '8s';
alter role authenticator set lock_timeout = '8s';

create schema if not exists extensions;
create extension if not exists pgcrypto with schema extensions;


create schema if not exists auth;
create schema if not exists supabase_migrations;

create table if not exists supabase_migrations.schema_migrations (
  version text primary key,
  statements text[],
  name text
);

-- auth.users, auth.identities and GoTrue's other tables, as hosted Supabase defines them: embedded-backend/auth/
-- gotrue-schema.sql, which the backend applies after this file and before the migrations (auth/schema.ts).

create or replace function auth.uid() returns uuid
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create or replace function auth.role() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

create or replace function auth.email() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;

create or replace function auth.jwt() returns jsonb
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

-- The grants hosted Supabase sets itself: the API roles may use the schemas public and extensions and call the
-- auth helpers. Nothing more: since 2026 ("Default privileges for new entities" off, the default for new projects
-- from 2026-05-30 and for every project from 2026-10-30) hosted sets no default privileges for anon, authenticated
-- or service_role, so a table, view, sequence or function a migration creates is reachable by an API role only
-- through a grant the migrations write (supabase/migrations/20260501000100_explicit_grants.sql and, after it, each
-- migration beside what it creates). Postgres's own default stays: PUBLIC may execute a new function until a
-- migration revokes it (supabase/tests/grants.test.ts checks that every one of ours does).
grant usage on schema public to anon, authenticated, service_role;
grant usage on schema extensions to anon, authenticated, service_role;
grant usage on schema auth to anon, authenticated, service_role;
grant execute on function auth.uid(), auth.role(), auth.email(), auth.jwt() to anon, authenticated, service_role;
grant all on schema auth to supabase_auth_admin;
grant all on all tables in schema auth to supabase_auth_admin;
-- A database built by an older bootstrap keeps the default privileges it set: take them back, so an existing local
-- database is as strict as a new one (revoking what was never granted does nothing).
alter default privileges in schema public revoke all on tables from anon, authenticated, service_role;
alter default privileges in schema public revoke all on functions from anon, authenticated, service_role;
alter default privileges in schema public revoke all on sequences from anon, authenticated, service_role;

-- Supabase Vault (the supabase_vault extension every hosted project has): named secrets that SQL, such as a
-- pg_cron job calling an edge function through pg_net, reads from vault.decrypted_secrets. Hosted Vault
-- encrypts them at rest; this local stand-in stores them as written (local development data only) and keeps
-- them from the API roles. The embedded backend writes project_url and functions_secret here at start.
create schema if not exists vault;
create table if not exists vault.secrets (
  id uuid primary key default gen_random_uuid(),
  name text unique,
  description text not null default '',
  secret text not null,
  key_id uuid,
  nonce bytea,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create or replace view vault.decrypted_secrets as
  select id, name, description, secret, secret as decrypted_secret, key_id, nonce, created_at, updated_at
  from vault.secrets;
-- create_secret and update_secret are security definer, as in supabase_vault 0.3: their callers (postgres's
-- definer functions, service_role) may read and delete secrets but not write the table directly.
create or replace function vault.create_secret(
  new_secret text, new_name text default null, new_description text default '', new_key_id uuid default null
)
returns uuid
language sql
security definer
set search_path = ''
as $$
  insert into vault.secrets (secret, name, description, key_id)
  values (new_secret, new_name, coalesce(new_description, ''), new_key_id)
  returning id
$$;
create or replace function vault.update_secret(
  secret_id uuid, new_secret text default null, new_name text default null, new_description text default null,
  new_key_id uuid default null
)
returns void
language sql
security definer
set search_path = ''
as $$
  update vault.secrets set
    secret = coalesce(new_secret, secret), name = coalesce(new_name, name),
    description = coalesce(new_description, description), key_id = coalesce(new_key_id, key_id), updated_at = now()
  where id = secret_id
$$;
-- Hosted's grants (supabase/postgres, for Vault 0.3): postgres may read and delete secrets and call the writers,
-- with grant option; service_role the same without it; no other API role reaches Vault.
revoke all on schema vault from public;
revoke all on all tables in schema vault from public, anon, authenticated;
revoke execute on all functions in schema vault from public, anon, authenticated;
grant usage on schema vault to postgres with grant option;
grant select, delete, truncate, references on vault.secrets, vault.decrypted_secrets to postgres with grant option;
grant execute on function vault.create_secret(text, text, text, uuid), vault.update_secret(uuid, text, text, text, uuid)
  to postgres with grant option;
grant usage on schema vault to service_role;
grant select, delete on vault.secrets, vault.decrypted_secrets to service_role;
grant execute on function vault.create_secret(text, text, text, uuid), vault.update_secret(uuid, text, text, text, uuid)
  to service_role;
