-- Issue 39: a list read the tool refuses (a 4xx other than 408 and 429: an unknown list, a request shape it does not
-- take, such as Kit's filter if its body ever changes) no longer leaves its readers waiting 6 hours and the next list
-- read failing the same way until the wait's bound charges them unverified: the refusal is kept for 7 days
-- (private.esp_list_read_refusals), during which private.esp_list_pages_estimate makes claim_esp_engagement_lists
-- leave that key's list to the per-reader read, and finish_esp_engagement_list makes the refused read's readers due
-- at once for it.
--
-- Grants: the new table is private (RLS on, nothing granted to an API role). The two functions are replaced in place
-- and keep their grants: finish_esp_engagement_list the service role's (re-stated below), esp_list_pages_estimate none
-- (its one caller is claim_esp_engagement_lists, a security definer), revoked from the API roles again below.

create table private.esp_list_read_refusals (
  key_fingerprint text not null,
  target_id text not null,
  refused_until timestamp with time zone not null,
  response_status integer,
  error text,
  constraint esp_list_read_refusals_pkey primary key (key_fingerprint, target_id)
);
alter table private.esp_list_read_refusals enable row level security;
revoke all on table private.esp_list_read_refusals from public, anon, authenticated, service_role;
comment on table private.esp_list_read_refusals is 'Internal: a key''s list whose list read the tool refused (a 4xx other than 408 and 429), read one reader at a time until refused_until (7 days on), with the tool''s answer.';

create or replace function private.esp_list_pages_estimate(p_fingerprint text, p_provider text, p_target_id text, p_since timestamp with time zone)
 returns integer
 language sql
 stable
 set search_path to ''
as $function$
  -- A list the tool refused to list (a 4xx other than 408 and 429: an unknown list, a request shape it does not
  -- take) is read one reader at a time until the refusal lapses: no count of due readers outnumbers this estimate.
  select case when exists (select 1 from private.esp_list_read_refusals f
      where f.key_fingerprint = p_fingerprint and f.target_id = p_target_id and f.refused_until > now())
    then 2147483647 else (
  -- Members the list read will page through: the more of what this key's list held when last read (Mailchimp, beehiiv
  -- and Kit list from `since` on, so a count from an earlier `since` bounds it; MailerLite lists the whole group) and
  -- the readers Growletter itself delivered into it since then.
  select greatest(1, ceil(greatest(
      coalesce((select l.members from private.esp_list_sizes l
        where l.key_fingerprint = p_fingerprint and l.target_id = p_target_id
          and (p_provider = 'mailerlite' or l.since <= p_since)), 0),
      (select count(*) from public.esp_deliveries d join public.esp_connections c on c.id = d.connection_id
        where c.key_fingerprint = p_fingerprint and c.target_id = p_target_id and d.status = 'delivered'
          and (p_provider = 'mailerlite' or d.delivered_at >= p_since)))::numeric
    / private.esp_list_page_size(p_provider))::integer)) end
$function$;
comment on function private.esp_list_pages_estimate(p_fingerprint text, p_provider text, p_target_id text, p_since timestamp with time zone) is 'Internal: the pages a list read of a key''s list from p_since would take (the tool''s last count, else what Growletter delivered into it), never under the due readers while the tool refuses the list (private.esp_list_read_refusals), for claim_esp_engagement_lists'' rule: a list read only when the due readers outnumber its pages.';
revoke execute on function private.esp_list_pages_estimate(p_fingerprint text, p_provider text, p_target_id text, p_since timestamp with time zone) from public;
revoke execute on function private.esp_list_pages_estimate(p_fingerprint text, p_provider text, p_target_id text, p_since timestamp with time zone) from anon, authenticated, service_role;

create or replace function public.finish_esp_engagement_list(p_list_read_id uuid, p_reads jsonb, p_pages integer, p_complete boolean, p_total integer default null::integer, p_response_status integer default null::integer, p_error text default null::text, p_retry_after_ms integer default null::integer)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  r private.esp_list_reads;
  n_read integer := 0;
  n_unseen integer := 0;
  delay interval;
  -- The tool refused the list read itself (not a 429, not an outage): its readers go one by one, at once.
  refused boolean := p_error is not null and p_response_status between 400 and 499 and p_response_status not in (408, 429);
begin
  select * into r from private.esp_list_reads l where l.id = p_list_read_id for update;
  if not found or r.locked_until < now() then
    return jsonb_build_object('state', 'missing', 'read', 0, 'missing', 0, 'waiting', 0);
  end if;
  if p_reads is not null and jsonb_typeof(p_reads) <> 'array' then
    raise exception 'p_reads must be a JSON array of reads ({id, engaged, opens, clicks, machine_opens, machine_clicks, clicked})';
  end if;
  -- Each reader the list showed, exactly as finish_esp_engagement records one read (totals never go down; engaged and
  -- counted stay true once seen; what counts: private.esp_counted_engagement). Only this read's readers.
  with reads as (
    select distinct on (x.id) x.* from jsonb_to_recordset(coalesce(p_reads, '[]'::jsonb))
      as x(id uuid, engaged boolean, opens integer, clicks integer, machine_opens integer, machine_clicks integer, clicked boolean)
    where x.id is not null
  ), done as (
    update public.esp_deliveries d set
      engaged = coalesce(d.engaged, false) or coalesce(x.engaged, false),
      opens = greatest(d.opens, case when x.opens >= 0 then x.opens end),
      clicks = greatest(d.clicks, case when x.clicks >= 0 then x.clicks end),
      machine_opens = greatest(d.machine_opens, case when x.machine_opens >= 0 then x.machine_opens end),
      machine_clicks = greatest(d.machine_clicks, case when x.machine_clicks >= 0 then x.machine_clicks end),
      counted_engagement = coalesce(d.counted_engagement, false)
        or private.esp_counted_engagement(x.opens, x.clicks, x.machine_opens, x.machine_clicks, x.clicked),
      engagement_checked_at = now(), engagement_locked_until = null, engagement_retry_at = null
    from reads x
    join private.esp_list_read_readers rr on rr.delivery_id = x.id and rr.list_read_id = p_list_read_id
    where d.id = x.id and d.status = 'delivered'
    returning d.id
  )
  select count(*) into n_read from done;
  -- The readers it did not show. A failure waits Retry-After or 6 hours (a 429 pauses the key), as a per-reader read;
  -- a complete list without them: gone from the tool, as a per-reader 404, 6 hours; a read cut short: due again.
  delay := least(coalesce(case when p_retry_after_ms is not null then make_interval(secs => greatest(p_retry_after_ms, 0) / 1000.0) end,
    interval '6 hours'), interval '1 day');
  if p_error is not null and p_response_status = 429 then
    insert into private.esp_key_pauses as p (key_fingerprint, paused_until) values (r.key_fingerprint, now() + delay)
    on conflict (key_fingerprint) do update set paused_until = greatest(p.paused_until, excluded.paused_until);
  end if;
  if refused then
    insert into private.esp_list_read_refusals as f (key_fingerprint, target_id, refused_until, response_status, error)
    values (r.key_fingerprint, r.target_id, now() + interval '7 days', p_response_status, left(p_error, 500))
    on conflict (key_fingerprint, target_id) do update set refused_until = excluded.refused_until,
      response_status = excluded.response_status, error = excluded.error;
  end if;
  update public.esp_deliveries d set engagement_locked_until = null,
    engagement_retry_at = case
      when refused then null
      when p_error is not null then now() + delay
      when coalesce(p_complete, false) then now() + interval '6 hours'
      else d.engagement_retry_at end
  from private.esp_list_read_readers rr
  where rr.list_read_id = p_list_read_id and d.id = rr.delivery_id
    -- (the readers just recorded were checked at this transaction's now())
    and (d.engagement_checked_at is null or d.engagement_checked_at < now());
  get diagnostics n_unseen = row_count;
  -- Pages granted and not read go back to the key's budget.
  if r.logged_at is not null then
    update private.esp_request_log l set requests = least(greatest(coalesce(p_pages, r.pages_granted), 0), r.pages_granted)
    where l.ctid = (select l2.ctid from private.esp_request_log l2
      where l2.key_fingerprint = r.key_fingerprint and l2.sent_at = r.logged_at and l2.requests = r.pages_granted limit 1);
  end if;
  if p_total is not null and p_total >= 0 and p_error is null then
    insert into private.esp_list_sizes as z (key_fingerprint, target_id, since, members, read_at)
    values (r.key_fingerprint, r.target_id, r.since, p_total, now())
    on conflict (key_fingerprint, target_id) do update set since = excluded.since, members = excluded.members, read_at = now();
  end if;
  delete from private.esp_list_reads l where l.id = p_list_read_id;
  return jsonb_build_object('state', 'finished', 'read', n_read,
    'missing', case when p_error is null and coalesce(p_complete, false) then n_unseen else 0 end,
    'waiting', case when p_error is null and coalesce(p_complete, false) then 0 else n_unseen end);
end
$function$;
comment on function public.finish_esp_engagement_list(p_list_read_id uuid, p_reads jsonb, p_pages integer, p_complete boolean, p_total integer, p_response_status integer, p_error text, p_retry_after_ms integer) is 'deliver-esp, service role only: records a list read in one call: each read ({id, engaged, opens, clicks, machine_opens, machine_clicks, clicked}) as finish_esp_engagement records one; the readers the list did not show wait 6 hours if it was complete (gone from the tool), Retry-After or 6 hours after a failure (a 429 pauses the key; a list the tool refuses with another 4xx is read one reader at a time for 7 days, its readers due at once), else stay due; unread pages go back to the key''s budget; the tool''s count is kept for the next claim. Returns {state, read, missing, waiting}.';
revoke execute on function public.finish_esp_engagement_list(p_list_read_id uuid, p_reads jsonb, p_pages integer, p_complete boolean, p_total integer, p_response_status integer, p_error text, p_retry_after_ms integer) from public, anon, authenticated;
grant execute on function public.finish_esp_engagement_list(p_list_read_id uuid, p_reads jsonb, p_pages integer, p_complete boolean, p_total integer, p_response_status integer, p_error text, p_retry_after_ms integer) to service_role;
