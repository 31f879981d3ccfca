/**
 * The auth schema of the embedded backend: GoTrue's own tables, as hosted Supabase has them (gotrue-schema.sql,
 * owned by supabase_auth_admin, row-level security on, no grants to the API roles), plus the few things this auth
 * server keeps for itself (LOCAL_SQL). Refresh tokens are stored as SHA-256 hashes in GoTrue's `token` column, so a
 * database dump cannot be replayed as sessions.
 */
import { readFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { literal, type Db, type Queryable } from '../db/database'

/** GoTrue's auth schema in its final form; applies on its own to a plain database (see the file's header). */
export const GOTRUE_SCHEMA_SQL = readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), 'gotrue-schema.sql'),
  'utf8',
)

/**
 * Creates GoTrue's auth schema as hosted Supabase has it, in one transaction: the `auth` schema (if missing) with
 * every privilege on it for `owner`, as the platform grants supabase_auth_admin, then every table, type and index
 * owned by `owner`, which must exist. Connected as `owner` itself (the schema must then exist with those
 * privileges, as the platform leaves it), or as a superuser (or a role that may create schemas and is a member of
 * `owner`); `owner: null` runs it all as the connected role, whoever that is. Idempotent.
 */
export async function applyGoTrueSchema(
  db: Db,
  { owner = 'supabase_auth_admin' }: { owner?: string | null } = {},
): Promise<void> {
  await db.transaction(async (tx) => {
    if (owner) {
      const role = `"${owner.replaceAll('"', '""')}"`
      const r = await tx.query<{ me: string; schema: boolean }>(
        "select current_user as me, to_regnamespace('auth') is not null as schema",
      )
      // The platform's part, where the platform has not done it: the schema, and every privilege on it for `owner`.
      if (!r.rows[0]?.schema) await tx.exec(`create schema auth; grant all on schema auth to ${role}`)
      // Already connected as `owner` (migrate.ts runs this step as supabase_auth_admin where the server has it).
      if (r.rows[0]?.me !== owner) await tx.exec(`set local role ${role}`)
    }
    await tx.exec(GOTRUE_SCHEMA_SQL)
  })
}

/** What this auth server adds to GoTrue's tables for its own hardening; none of it is GoTrue's. */
const LOCAL_SQL = `
-- The last TOTP time step a factor accepted (a code works once), and the codes tried on a challenge.
alter table auth.mfa_factors add column if not exists last_used_step bigint;
alter table auth.mfa_challenges add column if not exists attempts integer not null default 0;

-- Wrong email OTPs per account since its last token was issued; at the limit the tokens are cleared.
create table if not exists auth.otp_failures (
  user_id uuid primary key references auth.users (id) on delete cascade,
  failures integer not null default 0,
  updated_at timestamptz not null default now()
);
alter table auth.otp_failures owner to supabase_auth_admin;
alter table auth.otp_failures enable row level security;
-- The backend's connection is postgres on a hosted-shaped server, with every privilege on GoTrue's tables too.
do $$
begin
  if exists (select 1 from pg_roles where rolname = 'postgres') then
    grant all on auth.otp_failures to postgres;
  end if;
end
$$;

revoke all on all tables in schema auth from anon, authenticated, service_role;
`

/**
 * Databases made before the auth schema followed GoTrue (a lenient auth.users with defaults, sessions with an amr
 * column, refresh tokens in token_hash) are brought to GoTrue's definitions in place: users, identities and factors
 * keep their rows (the factors are set aside and come back in GoTrue's table, RESTORE_FACTORS_SQL), while sessions,
 * refresh tokens, challenges and PKCE flows (short-lived local data) start empty: everyone signs in again.
 */
const UPGRADE_LOCAL_SHAPE_SQL = `
create table auth.mfa_factors_before_gotrue as select * from auth.mfa_factors;
alter table auth.mfa_factors_before_gotrue owner to supabase_auth_admin;
drop table if exists auth.refresh_tokens, auth.mfa_challenges, auth.mfa_factors, auth.flow_state, auth.sessions cascade;
alter table auth.users owner to supabase_auth_admin;
alter table auth.identities owner to supabase_auth_admin;
alter table auth.users
  alter column id drop default, alter column aud drop default, alter column role drop default,
  alter column confirmation_token drop default, alter column recovery_token drop default,
  alter column email_change_token_new drop default, alter column email_change drop default,
  alter column raw_app_meta_data drop default, alter column raw_user_meta_data drop default,
  alter column created_at drop default, alter column updated_at drop default;
alter table auth.identities alter column created_at drop default, alter column updated_at drop default;
drop index if exists auth.users_email_partial_key;
`

const RESTORE_FACTORS_SQL = `
insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret, created_at, updated_at,
  last_challenged_at, last_used_step)
select id, user_id, coalesce(friendly_name, ''), factor_type::auth.factor_type, status::auth.factor_status, secret,
  coalesce(created_at, now()), coalesce(updated_at, now()), last_challenged_at, last_used_step
from auth.mfa_factors_before_gotrue
on conflict (id) do nothing;
drop table auth.mfa_factors_before_gotrue;
`

/** Marks a database where this exact schema ran (as the comment of auth.otp_failures, this server's own table). */
export const AUTH_SCHEMA_MARK = `growletter auth schema ${createHash('sha256')
  .update(GOTRUE_SCHEMA_SQL)
  .update(LOCAL_SQL)
  .update(UPGRADE_LOCAL_SHAPE_SQL)
  .update(RESTORE_FACTORS_SQL)
  .digest('hex')
  .slice(0, 16)}`

async function hasLocalShape(db: Queryable): Promise<boolean> {
  const r = await db.query(
    "select 1 from pg_attribute where attrelid = to_regclass('auth.refresh_tokens') and attname = 'token_hash'",
  )
  return r.rows.length > 0
}

/**
 * Idempotent: safe on every start, on PGlite and PostgreSQL. Skipped where this exact version already
 * ran (its mark): a start with an existing database has a 1 s budget.
 */
export async function ensureAuthSchema(db: Db): Promise<void> {
  const r = await db.query<{ mark: string | null }>(
    "select obj_description(to_regclass('auth.otp_failures'), 'pg_class') as mark",
  )
  if (r.rows[0]?.mark === AUTH_SCHEMA_MARK) return
  if (await hasLocalShape(db)) await db.exec(UPGRADE_LOCAL_SHAPE_SQL)
  await applyGoTrueSchema(db)
  await db.exec(LOCAL_SQL)
  const setAside = await db.query("select to_regclass('auth.mfa_factors_before_gotrue') is not null as found")
  if (setAside.rows[0]?.found) await db.exec(RESTORE_FACTORS_SQL)
  await db.exec(`comment on table auth.otp_failures is ${literal(AUTH_SCHEMA_MARK)};`)
}
