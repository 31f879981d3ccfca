-- The auth schema as a hosted Supabase project has it today: the tables, types and indexes GoTrue (supabase/auth)
-- ends up with after all of its migrations, written out in their final form. Column types, NOT NULLs and defaults
-- are GoTrue's, including its leniencies and its traps: most token columns of auth.users are nullable with no
-- default, yet GoTrue reads them into Go strings, so a row written outside GoTrue must set them to '' (never NULL);
-- mfa_factors, mfa_challenges and mfa_amr_claims have NOT NULL timestamps without defaults. Anything that writes
-- these tables (the seed, the embedded auth server, tests) meets the same rules here as on hosted Supabase.
--
-- Runs on its own on a plain database where the role supabase_auth_admin exists, as supabase_auth_admin (who owns
-- every object, as on hosted Supabase): `applyGoTrueSchema` in schema.ts does that from a superuser connection.
-- Idempotent. What the embedded auth server adds for itself lives in schema.ts, not here.
-- Left out: SSO/SAML, OAuth server and passkey tables (the stand-in answers those features "disabled"), and the
-- sessions.oauth_client_id foreign key that would need them.

do $$
begin
  if not exists (select 1 from pg_namespace where nspname = 'auth') then
    create schema auth;
  end if;
end
$$;

do $$
begin
  create type auth.factor_type as enum ('totp', 'webauthn', 'phone');
exception when duplicate_object then null;
end
$$;
do $$
begin
  create type auth.factor_status as enum ('unverified', 'verified');
exception when duplicate_object then null;
end
$$;
do $$
begin
  create type auth.aal_level as enum ('aal1', 'aal2', 'aal3');
exception when duplicate_object then null;
end
$$;
do $$
begin
  create type auth.code_challenge_method as enum ('s256', 'plain');
exception when duplicate_object then null;
end
$$;
do $$
begin
  create type auth.one_time_token_type as enum ('confirmation_token', 'reauthentication_token', 'recovery_token',
    'email_change_token_new', 'email_change_token_current', 'phone_change_token');
exception when duplicate_object then null;
end
$$;

-- Accounts. Only phone_change, phone_change_token, email_change_token_current and reauthentication_token default to
-- ''; confirmation_token, recovery_token, email_change_token_new and email_change default to NULL.
create table if not exists auth.users (
  instance_id uuid,
  id uuid not null,
  aud varchar(255),
  role varchar(255),
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255),
  email_change varchar(255),
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_super_admin boolean,
  created_at timestamptz,
  updated_at timestamptz,
  phone text default null,
  phone_confirmed_at timestamptz default null,
  phone_change text default '',
  phone_change_token varchar(255) default '',
  phone_change_sent_at timestamptz default null,
  confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  email_change_token_current varchar(255) default '',
  email_change_confirm_status smallint default 0,
  banned_until timestamptz,
  reauthentication_token varchar(255) default '',
  reauthentication_sent_at timestamptz default null,
  is_sso_user boolean not null default false,
  deleted_at timestamptz,
  is_anonymous boolean not null default false,
  constraint users_pkey primary key (id),
  constraint users_phone_key unique (phone),
  constraint users_email_change_confirm_status_check check (email_change_confirm_status >= 0 and email_change_confirm_status <= 2)
);
comment on table auth.users is 'Auth: user accounts and their login data (GoTrue''s definition).';
comment on column auth.users.is_sso_user is 'Auth: true for accounts that come from SSO, which may share an email address.';
create index if not exists users_instance_id_idx on auth.users (instance_id);
create index if not exists users_instance_id_email_idx on auth.users (instance_id, lower(email));
create unique index if not exists users_email_partial_key on auth.users (email) where is_sso_user = false;
create index if not exists users_is_anonymous_idx on auth.users (is_anonymous);
-- One-time tokens are unique, except the empty string and numeric codes (whitespace allowed), which many rows share.
create unique index if not exists confirmation_token_idx on auth.users (confirmation_token)
  where confirmation_token !~ '^[0-9 ]*$';
create unique index if not exists recovery_token_idx on auth.users (recovery_token) where recovery_token !~ '^[0-9 ]*$';
create unique index if not exists email_change_token_current_idx on auth.users (email_change_token_current)
  where email_change_token_current !~ '^[0-9 ]*$';
create unique index if not exists email_change_token_new_idx on auth.users (email_change_token_new)
  where email_change_token_new !~ '^[0-9 ]*$';
create unique index if not exists reauthentication_token_idx on auth.users (reauthentication_token)
  where reauthentication_token !~ '^[0-9 ]*$';

-- A user's ways to sign in: provider_id is the id at the provider (for email, the user's id as text).
create table if not exists auth.identities (
  provider_id text not null,
  user_id uuid not null,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz,
  updated_at timestamptz,
  email text generated always as (lower(identity_data ->> 'email')) stored,
  id uuid not null default gen_random_uuid(),
  constraint identities_pkey primary key (id),
  constraint identities_provider_id_provider_unique unique (provider_id, provider),
  constraint identities_user_id_fkey foreign key (user_id) references auth.users (id) on delete cascade
);
comment on table auth.identities is 'Auth: the identities (email, phone, OAuth providers) each user signs in with.';
create index if not exists identities_user_id_idx on auth.identities (user_id);
create index if not exists identities_email_idx on auth.identities (email text_pattern_ops);

-- Single-tenant GoTrue never writes here; the table exists on every project.
create table if not exists auth.instances (
  id uuid not null,
  uuid uuid,
  raw_base_config text,
  created_at timestamptz,
  updated_at timestamptz,
  constraint instances_pkey primary key (id)
);
comment on table auth.instances is 'Auth: multi-site instances (unused by a single project).';

create table if not exists auth.audit_log_entries (
  instance_id uuid,
  id uuid not null,
  payload json,
  created_at timestamptz,
  ip_address varchar(64) not null default '',
  constraint audit_log_entries_pkey primary key (id)
);
comment on table auth.audit_log_entries is 'Auth: what users and admins did, for the audit trail.';
create index if not exists audit_logs_instance_id_idx on auth.audit_log_entries (instance_id);

-- A signed-in device. The access token's session_id names a row here; amr lives in mfa_amr_claims.
create table if not exists auth.sessions (
  id uuid not null,
  user_id uuid not null,
  created_at timestamptz,
  updated_at timestamptz,
  factor_id uuid,
  aal auth.aal_level,
  not_after timestamptz,
  refreshed_at timestamp,
  user_agent text,
  ip inet,
  tag text,
  oauth_client_id uuid,
  refresh_token_hmac_key text,
  refresh_token_counter bigint,
  scopes text,
  constraint sessions_pkey primary key (id),
  constraint sessions_user_id_fkey foreign key (user_id) references auth.users (id) on delete cascade,
  constraint sessions_scopes_length check (char_length(scopes) <= 4096)
);
comment on table auth.sessions is 'Auth: signed-in sessions, one per device and sign-in.';
comment on column auth.sessions.not_after is 'Auth: when set, the session counts as expired after this time.';
create index if not exists sessions_user_id_idx on auth.sessions (user_id);
create index if not exists user_id_created_at_idx on auth.sessions (user_id, created_at);
create index if not exists sessions_not_after_idx on auth.sessions (not_after desc);
create index if not exists sessions_oauth_client_id_idx on auth.sessions (oauth_client_id);

-- Refresh tokens of a session; user_id is text here, for history's sake.
create table if not exists auth.refresh_tokens (
  instance_id uuid,
  id bigserial not null,
  token varchar(255),
  user_id varchar(255),
  revoked boolean,
  created_at timestamptz,
  updated_at timestamptz,
  parent varchar(255),
  session_id uuid,
  constraint refresh_tokens_pkey primary key (id),
  constraint refresh_tokens_token_unique unique (token),
  constraint refresh_tokens_session_id_fkey foreign key (session_id) references auth.sessions (id) on delete cascade
);
comment on table auth.refresh_tokens is 'Auth: refresh tokens, each revoked when it is exchanged for its child.';
create index if not exists refresh_tokens_instance_id_idx on auth.refresh_tokens (instance_id);
create index if not exists refresh_tokens_instance_id_user_id_idx on auth.refresh_tokens (instance_id, user_id);
create index if not exists refresh_tokens_parent_idx on auth.refresh_tokens (parent);
create index if not exists refresh_tokens_session_id_revoked_idx on auth.refresh_tokens (session_id, revoked);
create index if not exists refresh_tokens_updated_at_idx on auth.refresh_tokens (updated_at desc);

-- Second factors. created_at and updated_at are NOT NULL without a default: the writer fills them.
create table if not exists auth.mfa_factors (
  id uuid not null,
  user_id uuid not null,
  friendly_name text,
  factor_type auth.factor_type not null,
  status auth.factor_status not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  secret text,
  phone text default null,
  last_challenged_at timestamptz default null,
  web_authn_credential jsonb,
  web_authn_aaguid uuid,
  last_webauthn_challenge_data jsonb,
  constraint mfa_factors_pkey primary key (id),
  constraint mfa_factors_user_id_fkey foreign key (user_id) references auth.users (id) on delete cascade,
  constraint mfa_factors_last_challenged_at_key unique (last_challenged_at)
);
comment on table auth.mfa_factors is 'Auth: second factors (TOTP, phone, WebAuthn) users enrolled.';
create unique index if not exists mfa_factors_user_friendly_name_unique on auth.mfa_factors (friendly_name, user_id)
  where trim(friendly_name) <> '';
create index if not exists factor_id_created_at_idx on auth.mfa_factors (user_id, created_at);
create index if not exists mfa_factors_user_id_idx on auth.mfa_factors (user_id);
create unique index if not exists unique_phone_factor_per_user on auth.mfa_factors (user_id, phone);

-- A challenge issued to a factor; ip_address and created_at are NOT NULL without a default.
create table if not exists auth.mfa_challenges (
  id uuid not null,
  factor_id uuid not null,
  created_at timestamptz not null,
  verified_at timestamptz,
  ip_address inet not null,
  otp_code text,
  web_authn_session_data jsonb,
  constraint mfa_challenges_pkey primary key (id),
  constraint mfa_challenges_auth_factor_id_fkey foreign key (factor_id) references auth.mfa_factors (id) on delete cascade
);
comment on table auth.mfa_challenges is 'Auth: challenges issued to second factors.';
create index if not exists mfa_challenge_created_at_idx on auth.mfa_challenges (created_at desc);

-- How a session was authenticated (password, otp, totp...): the access token's amr claim, one row per method.
create table if not exists auth.mfa_amr_claims (
  session_id uuid not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  authentication_method text not null,
  id uuid not null,
  constraint amr_id_pk primary key (id),
  constraint mfa_amr_claims_session_id_authentication_method_pkey unique (session_id, authentication_method),
  constraint mfa_amr_claims_session_id_fkey foreign key (session_id) references auth.sessions (id) on delete cascade
);
comment on table auth.mfa_amr_claims is 'Auth: the authentication methods of each session (the amr claim).';

-- Hashes of the one-time tokens sent to users, for look-up by token.
create table if not exists auth.one_time_tokens (
  id uuid not null,
  user_id uuid not null,
  token_type auth.one_time_token_type not null,
  token_hash text not null,
  relates_to text not null,
  created_at timestamp not null default now(),
  updated_at timestamp not null default now(),
  constraint one_time_tokens_pkey primary key (id),
  constraint one_time_tokens_user_id_fkey foreign key (user_id) references auth.users (id) on delete cascade,
  constraint one_time_tokens_token_hash_check check (char_length(token_hash) > 0)
);
comment on table auth.one_time_tokens is 'Auth: hashes of outstanding one-time tokens (confirmation, recovery...).';
create index if not exists one_time_tokens_token_hash_hash_idx on auth.one_time_tokens using hash (token_hash);
create index if not exists one_time_tokens_relates_to_hash_idx on auth.one_time_tokens using hash (relates_to);
create unique index if not exists one_time_tokens_user_id_token_type_key on auth.one_time_tokens (user_id, token_type);

-- A PKCE (or OAuth) flow between its start and the code exchange. No foreign key to auth.users.
create table if not exists auth.flow_state (
  id uuid not null,
  user_id uuid,
  auth_code text,
  code_challenge_method auth.code_challenge_method,
  code_challenge text,
  provider_type text not null,
  provider_access_token text,
  provider_refresh_token text,
  created_at timestamptz,
  updated_at timestamptz,
  authentication_method text not null,
  auth_code_issued_at timestamptz,
  invite_token text,
  referrer text,
  oauth_client_state_id uuid,
  linking_target_id uuid,
  email_optional boolean not null default false,
  constraint flow_state_pkey primary key (id)
);
comment on table auth.flow_state is 'Auth: sign-in flows waiting for their code exchange (PKCE, OAuth).';
create index if not exists idx_auth_code on auth.flow_state (auth_code);
create index if not exists idx_user_id_auth_method on auth.flow_state (user_id, authentication_method);
create index if not exists flow_state_created_at_idx on auth.flow_state (created_at desc);

-- GoTrue's own record of its migrations (it runs them itself on hosted Supabase).
create table if not exists auth.schema_migrations (
  version varchar(255) not null,
  constraint schema_migrations_pkey primary key (version)
);
comment on table auth.schema_migrations is 'Auth: the auth server''s own migrations.';

-- The helpers policies call, as GoTrue defines them; created only where missing (the embedded backend's
-- bootstrap.sql already has them).
do $$
begin
  if to_regprocedure('auth.uid()') is null then
    execute $f$
      create function auth.uid() returns uuid language sql stable as $b$
        select coalesce(nullif(current_setting('request.jwt.claim.sub', true), ''),
          (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub'))::uuid
      $b$;
      comment on function auth.uid() is 'Deprecated. Use auth.jwt() -> ''sub'' instead.';
    $f$;
  end if;
  if to_regprocedure('auth.role()') is null then
    execute $f$
      create function auth.role() returns text language sql stable as $b$
        select coalesce(nullif(current_setting('request.jwt.claim.role', true), ''),
          (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role'))::text
      $b$;
      comment on function auth.role() is 'Deprecated. Use auth.jwt() -> ''role'' instead.';
    $f$;
  end if;
  if to_regprocedure('auth.email()') is null then
    execute $f$
      create function auth.email() returns text language sql stable as $b$
        select coalesce(nullif(current_setting('request.jwt.claim.email', true), ''),
          (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email'))::text
      $b$;
      comment on function auth.email() is 'Deprecated. Use auth.jwt() -> ''email'' instead.';
    $f$;
  end if;
  if to_regprocedure('auth.jwt()') is null then
    execute $f$
      create function auth.jwt() returns jsonb language sql stable as $b$
        select coalesce(nullif(current_setting('request.jwt.claim', true), ''),
          nullif(current_setting('request.jwt.claims', true), ''))::jsonb
      $b$;
    $f$;
  end if;
end
$$;

-- Row-level security on every auth table with no policy: only the owner (the auth server) and roles that bypass
-- RLS (postgres on hosted Supabase) read them.
alter table auth.users enable row level security;
alter table auth.identities enable row level security;
alter table auth.instances enable row level security;
alter table auth.audit_log_entries enable row level security;
alter table auth.sessions enable row level security;
alter table auth.refresh_tokens enable row level security;
alter table auth.mfa_factors enable row level security;
alter table auth.mfa_challenges enable row level security;
alter table auth.mfa_amr_claims enable row level security;
alter table auth.one_time_tokens enable row level security;
alter table auth.flow_state enable row level security;
alter table auth.schema_migrations enable row level security;

-- Hosted Supabase gives postgres (the role migrations run as) every privilege on the auth tables: it puts triggers
-- on auth.users and references it. The API roles get nothing here. (The schema's own usage grants are the
-- platform's, made where the schema is created.)
do $$
begin
  if exists (select 1 from pg_roles where rolname = 'postgres') then
    grant all on auth.users, auth.identities, auth.instances, auth.audit_log_entries, auth.sessions,
      auth.refresh_tokens, auth.mfa_factors, auth.mfa_challenges, auth.mfa_amr_claims, auth.one_time_tokens,
      auth.flow_state, auth.schema_migrations to postgres;
    grant all on sequence auth.refresh_tokens_id_seq to postgres;
  end if;
end
$$;
