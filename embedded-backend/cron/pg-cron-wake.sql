-- Wakes the embedded backend's scheduler (scheduler.ts, timers.ts) when cron.job changes, so it sleeps until
-- the next job is due instead of reading cron.job every second, and still notices a job scheduled, altered
-- or unscheduled at once (NOTIFY is delivered at commit; a rolled-back change wakes nobody).
-- Appended to pg-cron.sql by extensions.ts; run alone at start on a database installed before it (background.ts).
-- Idempotent.

create or replace function cron._wake_scheduler()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_catalog.pg_notify('embedded_backend_wake', 'pg_cron');
  return null;
end
$$;
comment on function cron._wake_scheduler() is 'Wakes the local pg_cron scheduler when cron.job changes (embedded-backend/cron)';
revoke execute on function cron._wake_scheduler() from public;

create or replace trigger wake_scheduler after insert or update or delete or truncate on cron.job
  for each statement execute function cron._wake_scheduler();
