-- What hosted Supabase does besides bootstrap.sql when `postgres` is not a superuser (a server made by
-- scripts/local-postgres.ts, whose superuser is supabase_admin): run as supabase_admin right after bootstrap.sql,
-- before the auth server creates its tables (as supabase_auth_admin) and the migrations run (as postgres).
-- Written from supabase/postgres (migrations/db/init-scripts and the migrations after them: demote-postgres,
-- update-auth-permissions, update-auth-owner, grant_auth_roles_to_postgres, grant_pg_monitor_to_postgres,
-- grant_predefined_roles_to_postgres, the extensions grants) and the supautils settings of its ansible files.
-- Idempotent, like bootstrap.sql.

-- postgres: the project's role. Not a superuser; member of the API roles (so it can act as them, as the dashboard
-- does) and of supabase_auth_admin (so it can put triggers and policies on auth.users); reads all data.
alter role postgres nosuperuser createdb createrole login replication bypassrls;
grant anon, authenticated, service_role, supabase_auth_admin to postgres;
grant pg_monitor, pg_read_all_data, pg_signal_backend to postgres;
alter role postgres set search_path = "$user", public, extensions;
alter role supabase_auth_admin set search_path = auth;
-- supautils lets postgres set a few superuser-only settings (supautils.privileged_role_allowed_configs); PostgreSQL 15
-- grants the same with SET ON PARAMETER. The tests switch triggers off with session_replication_role.
grant set on parameter session_replication_role to postgres;

-- The database and the schemas the project builds in.
do $$
begin
  execute format('grant all on database %I to postgres', pg_catalog.current_database());
end
$$;
grant usage, create on schema public to postgres;
grant all on schema extensions to postgres;
grant all on all tables in schema extensions to postgres with grant option;
grant all on all routines in schema extensions to postgres with grant option;
grant all on all sequences in schema extensions to postgres with grant option;
alter default privileges in schema extensions grant all on tables to postgres with grant option;
alter default privileges in schema extensions grant all on routines to postgres with grant option;
alter default privileges in schema extensions grant all on sequences to postgres with grant option;

-- auth: the schema is the platform's; its tables and functions belong to supabase_auth_admin, as GoTrue's own
-- migrations leave them (bootstrap.sql made users, identities and the helper functions as the platform; hosted
-- hands them over the same way). postgres may use all of them, and what GoTrue creates later too.
do $$
declare
  r record;
begin
  for r in select c.oid::regclass as name from pg_class c
           where c.relnamespace = 'auth'::regnamespace and c.relkind in ('r', 'p', 'v', 'm')
             and c.relowner <> 'supabase_auth_admin'::regrole loop
    execute format('alter table %s owner to supabase_auth_admin', r.name);
  end loop;
  for r in select p.oid::regprocedure as name from pg_proc p
           where p.pronamespace = 'auth'::regnamespace and p.proowner <> 'supabase_auth_admin'::regrole loop
    execute format('alter function %s owner to supabase_auth_admin', r.name);
  end loop;
end
$$;
grant usage on schema auth to postgres;
grant all on all tables in schema auth to postgres;
grant all on all sequences in schema auth to postgres;
grant all on all routines in schema auth to postgres;
alter default privileges for role supabase_auth_admin in schema auth grant all on tables to postgres;
alter default privileges for role supabase_auth_admin in schema auth grant all on sequences to postgres;
alter default privileges for role supabase_auth_admin in schema auth grant all on routines to postgres;

-- The Supabase CLI creates its history table as the role it connects as: postgres.
alter schema supabase_migrations owner to postgres;
alter table supabase_migrations.schema_migrations owner to postgres;
