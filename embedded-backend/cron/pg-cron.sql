-- pg_cron 1.6's SQL interface, for the embedded backend (embedded-backend). On hosted Supabase a migration's
-- `create extension if not exists pg_cron` installs the real extension; here the migration runner runs this
-- file in its place (see extensions.ts) and the backend's scheduler (scheduler.ts) plays pg_cron's
-- background worker: it reads cron.job, runs each due job in its own transaction as the job's user, and
-- records every run in cron.job_run_details. Same tables, columns, functions, grants and row-level security
-- as pg_cron, so migrations and the SQL people type against them behave the same in both places.
-- Idempotent: `create extension if not exists` may run it more than once.

create schema if not exists cron;
comment on schema cron is 'pg_cron 1.6 interface (local emulation by embedded-backend/cron)';

create sequence if not exists cron.jobid_seq;
create sequence if not exists cron.runid_seq;

create table if not exists cron.job (
  jobid bigint primary key default pg_catalog.nextval('cron.jobid_seq'),
  schedule text not null,
  command text not null,
  nodename text not null default 'localhost',
  nodeport int not null default coalesce(pg_catalog.inet_server_port(), 5432),
  database text not null default pg_catalog.current_database(),
  username text not null default current_user,
  active boolean not null default true,
  jobname text,
  constraint jobname_username_uniq unique (jobname, username)
);

create table if not exists cron.job_run_details (
  jobid bigint,
  runid bigint primary key default pg_catalog.nextval('cron.runid_seq'),
  job_pid integer,
  database text,
  username text,
  command text,
  status text,
  return_message text,
  start_time timestamptz,
  end_time timestamptz
);
create index if not exists job_run_details_jobid_start_idx on cron.job_run_details (jobid, start_time desc);

grant usage on schema cron to public;
grant select on cron.job to public;
grant select, delete on cron.job_run_details to public;
alter table cron.job enable row level security;
alter table cron.job_run_details enable row level security;
drop policy if exists cron_job_policy on cron.job;
create policy cron_job_policy on cron.job using (username operator(pg_catalog.=) current_user);
drop policy if exists cron_job_run_details_policy on cron.job_run_details;
create policy cron_job_run_details_policy on cron.job_run_details using (username operator(pg_catalog.=) current_user);

-- pg_cron refuses a schedule it cannot parse when the job is created, not when it would run. The accepted
-- forms: five cron fields (numbers, names, ranges, lists, steps, '$' for the last day of the month), the
-- @-nicknames, and '[1-59] seconds'.
create or replace function cron.__check_schedule(p_schedule text)
returns text
language plpgsql immutable
set search_path = ''
as $$
declare
  s text := pg_catalog.btrim(p_schedule);
begin
  if p_schedule is null then
    return null;
  end if;
  if s ~* '^([1-9]|[1-5][0-9]) seconds?$'
     or s ~* '^@(yearly|annually|monthly|weekly|daily|hourly|reboot)$'
     or s ~* '^[0-9a-z*,/$-]+(\s+[0-9a-z*,/$-]+){4}$' then
    return s;
  end if;
  raise exception 'invalid schedule: %', p_schedule
    using hint = 'Use cron syntax (five fields), e.g. ''*/5 * * * *'', or an interval of 1 to 59 seconds, e.g. ''30 seconds''.';
end
$$;

create or replace function cron.schedule(schedule text, command text)
returns bigint
language plpgsql strict
set search_path = ''
as $$
declare
  id bigint;
begin
  insert into cron.job (schedule, command)
  values (cron.__check_schedule(schedule), command)
  returning jobid into id;
  return id;
end
$$;
comment on function cron.schedule(text, text) is 'schedule a pg_cron job';

-- With a name, pg_cron updates the caller's job of that name instead of adding a second one, so a
-- migration that schedules a job can run again and a later migration can change the schedule.
create or replace function cron.schedule(job_name text, schedule text, command text)
returns bigint
language plpgsql strict
set search_path = ''
as $$
declare
  id bigint;
begin
  insert into cron.job (jobname, schedule, command)
  values (job_name, cron.__check_schedule(schedule), command)
  on conflict (jobname, username) do update
    set schedule = excluded.schedule, command = excluded.command, active = true
  returning jobid into id;
  return id;
end
$$;
comment on function cron.schedule(text, text, text) is 'schedule a pg_cron job';

create or replace function cron.schedule_in_database(
  job_name text, schedule text, command text, database text, username text default null, active boolean default true
)
returns bigint
language plpgsql
set search_path = ''
as $$
declare
  id bigint;
begin
  if database is distinct from pg_catalog.current_database() then
    raise exception 'the local scheduler only runs jobs in database %', pg_catalog.current_database();
  end if;
  insert into cron.job (jobname, schedule, command, database, username, active)
  values (job_name, cron.__check_schedule(schedule), command, database, coalesce(username, current_user), coalesce(active, true))
  on conflict (jobname, username) do update
    set schedule = excluded.schedule, command = excluded.command, active = excluded.active
  returning jobid into id;
  return id;
end
$$;
comment on function cron.schedule_in_database(text, text, text, text, text, boolean) is 'schedule a pg_cron job';

create or replace function cron.unschedule(job_id bigint)
returns boolean
language plpgsql strict
set search_path = ''
as $$
begin
  delete from cron.job where jobid = job_id and username = current_user;
  if not found then
    raise exception 'could not find valid entry for job %', job_id;
  end if;
  return true;
end
$$;
comment on function cron.unschedule(bigint) is 'unschedule a pg_cron job';

create or replace function cron.unschedule(job_name text)
returns boolean
language plpgsql strict
set search_path = ''
as $$
begin
  delete from cron.job where jobname = job_name and username = current_user;
  if not found then
    raise exception 'could not find valid entry for job ''%''', job_name;
  end if;
  return true;
end
$$;
comment on function cron.unschedule(text) is 'unschedule a pg_cron job';

create or replace function cron.alter_job(
  job_id bigint,
  schedule text default null,
  command text default null,
  database text default null,
  username text default null,
  active boolean default null
)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if database is not null and database <> pg_catalog.current_database() then
    raise exception 'the local scheduler only runs jobs in database %', pg_catalog.current_database();
  end if;
  update cron.job j set
    schedule = coalesce(cron.__check_schedule(alter_job.schedule), j.schedule),
    command = coalesce(alter_job.command, j.command),
    username = coalesce(alter_job.username, j.username),
    active = coalesce(alter_job.active, j.active)
  where j.jobid = job_id and j.username = current_user;
  if not found then
    raise exception 'Job % does not exist or you don''t own it', job_id;
  end if;
end
$$;
comment on function cron.alter_job(bigint, text, text, text, text, boolean) is 'Alter the job identified by job_id. Any option left as NULL will not be modified.';

-- Writing jobs goes through the functions above (pg_cron grants its basic functions to the extension's
-- owner and keeps them from everyone else).
revoke execute on all functions in schema cron from public;
