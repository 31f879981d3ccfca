-- Wakes the embedded backend's pg_net worker (net-worker.ts, timers.ts) when a request is queued, as pg_net's
-- http_* functions wake its background worker: the worker sleeps instead of polling the queue. NOTIFY is
-- delivered at commit, exactly when the request becomes visible to the worker; a rolled-back one wakes nobody.
-- Appended to pg-net.sql by extensions.ts; run alone at start on a database installed before it (background.ts).
-- Idempotent.

create or replace function net._wake_worker()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_catalog.pg_notify('embedded_backend_wake', 'pg_net');
  return null;
end
$$;
comment on function net._wake_worker() is 'Wakes the local pg_net worker when a request is queued (embedded-backend/cron)';
revoke execute on function net._wake_worker() from public;

create or replace trigger wake_worker after insert on net.http_request_queue
  for each statement execute function net._wake_worker();
