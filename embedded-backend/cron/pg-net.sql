-- pg_net's SQL interface, for the embedded backend (embedded-backend). On hosted Supabase a migration's
-- `create extension if not exists pg_net` installs the real extension; here the migration runner runs this
-- file in its place (see extensions.ts) and the backend's worker (net-worker.ts) plays pg_net's background
-- worker: it takes committed rows from net.http_request_queue, performs them with fetch, and stores each
-- answer in net._http_response under the request's id. As with pg_net, a request queued by a transaction
-- that rolls back is never sent, and delivery is at most once: callers that must not lose work keep it in
-- their own table until the receiving side confirms it.
-- Idempotent: `create extension if not exists` may run it more than once.

create schema if not exists net;
comment on schema net is 'pg_net interface (local emulation by embedded-backend/cron)';

do $$
begin
  if not exists (select 1 from pg_type t join pg_namespace n on n.oid = t.typnamespace
                 where n.nspname = 'net' and t.typname = 'http_method') then
    create domain net.http_method as text check (value in ('GET', 'POST', 'DELETE'));
  end if;
end
$$;

create unlogged table if not exists net.http_request_queue (
  id bigserial not null,
  method net.http_method not null,
  url text not null,
  headers jsonb not null,
  body bytea,
  timeout_milliseconds integer not null
);

create unlogged table if not exists net._http_response (
  id bigint,
  status_code integer,
  content_type text,
  headers jsonb,
  content text,
  timed_out boolean,
  error_msg text,
  created timestamptz not null default now()
);
create index if not exists _http_response_created_idx on net._http_response (created);

-- Percent-encodes a query-string key or value (RFC 3986 unreserved characters stay), as pg_net does with curl.
create or replace function net._urlencode(s text)
returns text
language sql immutable
set search_path = ''
as $$
  select coalesce(pg_catalog.string_agg(
    case when t.ch ~ '^[A-Za-z0-9_.~-]$' then t.ch
    else (select pg_catalog.string_agg('%' || pg_catalog.upper(pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.get_byte(b.bytes, k)), 2, '0')), '' order by k)
          from (select pg_catalog.convert_to(t.ch, 'UTF8') as bytes) b, pg_catalog.generate_series(0, pg_catalog.length(b.bytes) - 1) k)
    end, '' order by t.i), '')
  from pg_catalog.regexp_split_to_table(s, '') with ordinality as t(ch, i)
$$;

-- The url with params appended as a query string, as pg_net builds it.
create or replace function net._url_with_params(url text, params jsonb)
returns text
language sql immutable
set search_path = ''
as $$
  select case
    when params is null or params = '{}'::jsonb then url
    else url || case when pg_catalog.strpos(url, '?') > 0 then '&' else '?' end || (
      select pg_catalog.string_agg(net._urlencode(e.k) || '=' || net._urlencode(e.v), '&')
      from pg_catalog.jsonb_each_text(params) as e(k, v))
  end
$$;

create or replace function net.http_get(
  url text,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{}'::jsonb,
  timeout_milliseconds integer default 5000
)
returns bigint
language plpgsql volatile
security definer
set search_path = ''
as $$
declare
  request_id bigint;
begin
  insert into net.http_request_queue (method, url, headers, timeout_milliseconds)
  values ('GET', net._url_with_params(url, params), coalesce(headers, '{}'::jsonb), timeout_milliseconds)
  returning id into request_id;
  return request_id;
end
$$;
comment on function net.http_get(text, jsonb, jsonb, integer) is 'Queues an HTTP GET; returns the request id (net._http_response.id)';

create or replace function net.http_post(
  url text,
  body jsonb default '{}'::jsonb,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
  timeout_milliseconds integer default 5000
)
returns bigint
language plpgsql volatile
security definer
set search_path = ''
as $$
declare
  request_id bigint;
  content_type text;
begin
  select h.value into content_type from pg_catalog.jsonb_each_text(coalesce(headers, '{}'::jsonb)) h
    where pg_catalog.lower(h.key) = 'content-type';
  if content_type is null then
    headers := coalesce(headers, '{}'::jsonb) || '{"Content-Type": "application/json"}'::jsonb;
  elsif content_type <> 'application/json' then
    raise exception 'Content-Type header must be "application/json"';
  end if;
  insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
  values ('POST', net._url_with_params(url, params), headers,
          pg_catalog.convert_to(coalesce(body, 'null'::jsonb)::text, 'UTF8'), timeout_milliseconds)
  returning id into request_id;
  return request_id;
end
$$;
comment on function net.http_post(text, jsonb, jsonb, jsonb, integer) is 'Queues an HTTP POST with a JSON body; returns the request id (net._http_response.id)';

create or replace function net.http_delete(
  url text,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{}'::jsonb,
  timeout_milliseconds integer default 5000
)
returns bigint
language plpgsql volatile
security definer
set search_path = ''
as $$
declare
  request_id bigint;
begin
  insert into net.http_request_queue (method, url, headers, timeout_milliseconds)
  values ('DELETE', net._url_with_params(url, params), coalesce(headers, '{}'::jsonb), timeout_milliseconds)
  returning id into request_id;
  return request_id;
end
$$;
comment on function net.http_delete(text, jsonb, jsonb, integer) is 'Queues an HTTP DELETE; returns the request id (net._http_response.id)';

-- As on hosted Supabase, the API roles cannot make the database send requests; the owner and the service role can.
revoke all on schema net from public;
revoke execute on all functions in schema net from public;
grant usage on schema net to service_role;
grant execute on function net.http_get(text, jsonb, jsonb, integer), net.http_post(text, jsonb, jsonb, jsonb, integer),
  net.http_delete(text, jsonb, jsonb, integer) to service_role;
grant select on net._http_response to service_role;
