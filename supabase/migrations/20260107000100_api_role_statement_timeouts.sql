-- API role statement timeouts: Supabase's defaults (anon 3 s, authenticated 8 s), so one expensive
-- request (a pathological `match` filter, a runaway function) is cancelled instead of holding a
-- connection and stalling others. Hosted Supabase already sets these; the embedded backend reads them
-- from the catalog and applies them in each request's prelude, because `set local role` does not.
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';
