/**
 * The auth tables GoTrue keeps beside auth.users (bootstrap.sql creates users and identities).
 * Owned by the database owner with no grants to the API roles: only this auth server reads them.
 * Refresh tokens are stored as SHA-256 hashes, so a database dump cannot be replayed as sessions.
 */
import { createHash } from 'node:crypto'
import { literal, type Db } from '../db/database'

const SQL = `
create table if not exists auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  aal text not null default 'aal1',
  amr jsonb not null default '[]'::jsonb,
  factor_id uuid,
  user_agent text,
  ip text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  refreshed_at timestamptz
);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);

create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token_hash text not null unique,
  parent_hash text,
  user_id uuid not null references auth.users (id) on delete cascade,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  revoked boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists refresh_tokens_session_id_idx on auth.refresh_tokens (session_id);
create index if not exists refresh_tokens_parent_hash_idx on auth.refresh_tokens (parent_hash);

create table if not exists auth.mfa_factors (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type text not null,
  status text not null default 'unverified',
  secret text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_challenged_at timestamptz
);
create index if not exists mfa_factors_user_id_idx on auth.mfa_factors (user_id);

create table if not exists auth.mfa_challenges (
  id uuid primary key,
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  ip_address text,
  created_at timestamptz not null default now(),
  verified_at timestamptz
);

create table if not exists auth.flow_state (
  id uuid primary key,
  user_id uuid references auth.users (id) on delete cascade,
  auth_code text not null unique,
  code_challenge text not null,
  code_challenge_method text not null,
  authentication_method text not null,
  created_at timestamptz not null default now()
);

-- Trust hardening (issue 10), as columns added in place so existing local databases pick them up:
-- the last TOTP time step a factor accepted (a code works once), and the codes tried on a challenge.
alter table auth.mfa_factors add column if not exists last_used_step bigint;
alter table auth.mfa_challenges add column if not exists attempts integer not null default 0;

-- Wrong email OTPs per account since its last token was issued; at the limit the tokens are cleared.
create table if not exists auth.otp_failures (
  user_id uuid primary key references auth.users (id) on delete cascade,
  failures integer not null default 0,
  updated_at timestamptz not null default now()
);

revoke all on auth.sessions, auth.refresh_tokens, auth.mfa_factors, auth.mfa_challenges, auth.flow_state,
  auth.otp_failures
  from anon, authenticated, service_role;
`

/** Marks a database where this exact SQL ran (as the comment of auth.sessions). */
export const AUTH_SCHEMA_MARK = `growletter auth schema ${createHash('sha256').update(SQL).digest('hex').slice(0, 16)}`

/**
 * Idempotent: safe on every start, on PGlite and PostgreSQL. Skipped where this exact version already
 * ran (its mark is the comment of auth.sessions): a start with an existing database has a 1 s budget.
 */
export async function ensureAuthSchema(db: Db): Promise<void> {
  const r = await db.query<{ mark: string | null }>(
    "select obj_description(to_regclass('auth.sessions'), 'pg_class') as mark",
  )
  if (r.rows[0]?.mark === AUTH_SCHEMA_MARK) return
  await db.exec(`${SQL};\ncomment on table auth.sessions is ${literal(AUTH_SCHEMA_MARK)};`)
}
