-- Engagement read-back by list pages (issue 39, "10,000 readers decided within the hour of their window closing").
-- The per-reader read (claim_esp_engagement -> the client's `engagement` -> finish_esp_engagement) costs one request
-- per reader: 10,000 readers whose windows close together on one MailerLite key take ~83 minutes at its 120/min.
-- Each tool also lists a list's subscribers with their engagement, up to 1,000 a page (beehiiv 100): a list read.
--
-- claim_esp_engagement_lists hands out, per (API key, list) with due readers, a list read when it is cheaper: when the
-- due readers outnumber the pages the list read would take (private.esp_list_pages_estimate; else the per-reader path
-- takes them, as before). A page costs one request of the key's budget (private.esp_budget, the same log and pauses);
-- on Mailchimp, whose budget is connections at once, a list read is one connection (it holds one of its readers'
-- engagement lease, which the concurrency counts already see). Its readers are leased with it (2 minutes, like a
-- read-back's lease) and not due meanwhile (private.esp_engagement_due). deliver-esp reads the pages, matches the
-- members to the readers by email or the id the tool gave at delivery, and finish_esp_engagement_list records all of
-- them in one call with the same rule as finish_esp_engagement (private.esp_counted_engagement, which both now ask).
-- A reader the complete list did not show (deleted or unsubscribed in the tool) waits 6 hours as a per-reader read's
-- 404 does, then is read again (by then usually alone, so one by one) until the wait's bound decides it. A read cut
-- short (the run's page grant or time) leaves the unseen readers due; a failure waits Retry-After or 6 hours, a 429
-- pausing the key, exactly as the per-reader path.

create table private.esp_list_reads (
  id uuid default gen_random_uuid() not null,
  key_fingerprint text not null,
  provider text not null,
  target_id text not null,
  since timestamp with time zone not null,
  pages_granted integer not null,
  logged_at timestamp with time zone,
  locked_until timestamp with time zone not null,
  constraint esp_list_reads_pkey primary key (id)
);
alter table private.esp_list_reads enable row level security;
revoke all on table private.esp_list_reads from public, anon, authenticated;
comment on table private.esp_list_reads is 'Internal: list reads of engagement in flight (claim_esp_engagement_lists until finish_esp_engagement_list or the lease ends): the key, list, since when members are listed, the pages granted from the key''s budget and when they were logged.';

create table private.esp_list_read_readers (
  delivery_id uuid not null,
  list_read_id uuid not null,
  constraint esp_list_read_readers_pkey primary key (delivery_id),
  constraint esp_list_read_readers_delivery_fkey foreign key (delivery_id) references public.esp_deliveries(id) on delete cascade,
  constraint esp_list_read_readers_read_fkey foreign key (list_read_id) references private.esp_list_reads(id) on delete cascade
);
create index esp_list_read_readers_read_idx on private.esp_list_read_readers using btree (list_read_id);
alter table private.esp_list_read_readers enable row level security;
revoke all on table private.esp_list_read_readers from public, anon, authenticated;
comment on table private.esp_list_read_readers is 'Internal: the readers a list read in flight will record (not due to any other read meanwhile).';

create table private.esp_list_sizes (
  key_fingerprint text not null,
  target_id text not null,
  since timestamp with time zone not null,
  members integer not null,
  read_at timestamp with time zone default now() not null,
  constraint esp_list_sizes_pkey primary key (key_fingerprint, target_id)
);
alter table private.esp_list_sizes enable row level security;
revoke all on table private.esp_list_sizes from public, anon, authenticated;
comment on table private.esp_list_sizes is 'Internal: how many members the tool last listed for a key''s list (its total, or those counted on a complete read) from `since` on, so the next claim knows the pages a list read takes.';

create function private.esp_list_page_size(p_provider text)
 returns integer
 language sql
 immutable
 set search_path to ''
as $function$
  select case p_provider when 'beehiiv' then 100 else 1000 end
$function$;
comment on function private.esp_list_page_size(p_provider text) is 'Internal: members per page of a list read: Mailchimp (count up to 1000), MailerLite (limit up to 1000), Kit (per_page up to 1000); beehiiv lists at most 100.';
revoke execute on function private.esp_list_page_size(p_provider text) from public;
revoke execute on function private.esp_list_page_size(p_provider text) from anon, authenticated, service_role;

create function private.esp_counted_engagement(p_opens integer, p_clicks integer, p_machine_opens integer, p_machine_clicks integer, p_clicked boolean)
 returns boolean
 language sql
 immutable
 set search_path to ''
as $function$
  -- PRODUCT "Pay for readers who read": where the tool tells machines apart (it reports machine opens or clicks), any
  -- open or click by a person; where it cannot, only a click (a count, else a click rate above 0).
  select coalesce(case when p_machine_opens is not null or p_machine_clicks is not null
    then coalesce(p_opens, 0) - coalesce(p_machine_opens, 0) > 0 or coalesce(p_clicks, 0) - coalesce(p_machine_clicks, 0) > 0
    else coalesce(p_clicks > 0, p_clicked) end, false)
$function$;
comment on function private.esp_counted_engagement(p_opens integer, p_clicks integer, p_machine_opens integer, p_machine_clicks integer, p_clicked boolean) is 'Internal: whether one read-back shows a counted open or click (a person''s where the tool tells machines apart, else clicks only); asked by finish_esp_engagement and finish_esp_engagement_list alike.';
revoke execute on function private.esp_counted_engagement(p_opens integer, p_clicks integer, p_machine_opens integer, p_machine_clicks integer, p_clicked boolean) from public;
revoke execute on function private.esp_counted_engagement(p_opens integer, p_clicks integer, p_machine_opens integer, p_machine_clicks integer, p_clicked boolean) from anon, authenticated, service_role;

-- The same rule as 20260521000100, and not due while a list read in flight holds the reader.
create or replace function private.esp_engagement_due(d public.esp_deliveries, p_provider text, p_confirmed_at timestamp with time zone, p_window_days integer, p_final boolean)
 returns boolean
 language sql
 stable
 set search_path to ''
as $function$
  select d.status = 'delivered' and private.esp_reports_engagement(p_provider)
    and (d.engagement_locked_until is null or d.engagement_locked_until < now())
    and (d.engagement_retry_at is null or d.engagement_retry_at <= now())
    and not exists (select 1 from private.esp_list_read_readers x join private.esp_list_reads r on r.id = x.list_read_id
      where x.delivery_id = d.id and r.locked_until > now())
    and (
      (p_confirmed_at > now() - make_interval(days => coalesce(p_window_days, 7))
        and coalesce(d.engagement_checked_at, d.delivered_at) <= now() - interval '6 hours')
      or (coalesce(p_final, false) and not coalesce(d.counted_engagement, false)
        and p_confirmed_at + make_interval(days => coalesce(p_window_days, 7)) <= now()
        and p_confirmed_at + make_interval(days => coalesce(p_window_days, 7)) > now() - private.engagement_wait_bound()
        and (d.engagement_checked_at is null
          or d.engagement_checked_at < p_confirmed_at + make_interval(days => coalesce(p_window_days, 7)))));
$function$;
comment on function private.esp_engagement_due(d public.esp_deliveries, p_provider text, p_confirmed_at timestamp with time zone, p_window_days integer, p_final boolean) is 'Internal: whether a delivered subscriber''s engagement is due to be read: within its window (engagement window, else 7 days) every 6 hours from the delivery; and, for a reader paid per engagement and not yet decided, once after the window closed (until the wait''s bound); never while a read or a list read in flight holds it.';

create function private.esp_list_pages_estimate(p_fingerprint text, p_provider text, p_target_id text, p_since timestamp with time zone)
 returns integer
 language sql
 stable
 set search_path to ''
as $function$
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
    / private.esp_list_page_size(p_provider))::integer)
$function$;
comment on function private.esp_list_pages_estimate(p_fingerprint text, p_provider text, p_target_id text, p_since timestamp with time zone) is 'Internal: the pages a list read of a key''s list from p_since would take (the tool''s last count, else what Growletter delivered into it), for claim_esp_engagement_lists'' rule: a list read only when the due readers outnumber its pages.';
revoke execute on function private.esp_list_pages_estimate(p_fingerprint text, p_provider text, p_target_id text, p_since timestamp with time zone) from public;
revoke execute on function private.esp_list_pages_estimate(p_fingerprint text, p_provider text, p_target_id text, p_since timestamp with time zone) from anon, authenticated, service_role;

create function public.claim_esp_engagement_lists(p_limit integer default 4)
 returns table(list_read_id uuid, provider text, target_id text, api_key text, since timestamp with time zone, pages integer, page_size integer, readers jsonb)
 language plpgsql
 security definer
 set search_path to ''
as $function$
#variable_conflict use_column
declare
  wanted integer := least(greatest(coalesce(p_limit, 4), 1), 20);
  g record;
  b record;
  used integer;
  since_v timestamp with time zone;
  need integer;
  granted integer;
  rid uuid;
  handed integer := 0;
begin
  -- The same lock, log and pauses as claim_esp_deliveries and claim_esp_engagement.
  perform pg_advisory_xact_lock(hashtext('public.claim_esp_deliveries'));
  delete from private.esp_key_pauses p where p.paused_until <= now();
  delete from private.esp_list_reads r where r.locked_until < now();
  for g in
    select c.key_fingerprint as fp, c.provider as prov, c.target_id as tgt, (array_agg(c.id order by c.id))[1] as conn,
      min(s.confirmed_at) as first_confirmed, count(*)::integer as due
    from public.esp_deliveries d
    join public.esp_connections c on c.id = d.connection_id
    join public.newsletter_subscriptions s on s.id = d.subscription_id
    where d.status = 'delivered' and private.esp_engagement_due(d, c.provider, s.confirmed_at, s.engagement_window_days, s.pay_rule = 'engaged' and s.engagement_decided_at is null)
      and not exists (select 1 from private.esp_key_pauses p where p.key_fingerprint = c.key_fingerprint)
    group by c.key_fingerprint, c.provider, c.target_id
    order by min(coalesce(d.engagement_checked_at, d.delivered_at))
  loop
    exit when wanted <= 0 or handed >= 10000;
    -- Members are listed from a day before the earliest due reader confirmed (the tools keep the confirmation time as
    -- the opt-in time, or the delivery a few seconds later as the sign-up).
    since_v := g.first_confirmed - interval '1 day';
    need := private.esp_list_pages_estimate(g.fp, g.prov, g.tgt, since_v);
    -- The rule: per reader while that is no dearer (a reader a request against a page a request).
    continue when g.due <= need;
    select * into b from private.esp_budget(g.prov);
    if b.concurrent is not null then
      select count(*) into used from public.esp_deliveries d join public.esp_connections c on c.id = d.connection_id
      where c.key_fingerprint = g.fp
        and ((d.status = 'queued' and d.locked_until > now())
          or (d.status = 'delivered' and d.engagement_locked_until > now()));
      -- One connection, its pages one after another; one page more than estimated for members who joined meanwhile.
      granted := case when used < b.concurrent then need + 1 else 0 end;
    else
      select coalesce(sum(l.requests), 0) into used from private.esp_request_log l
      where l.key_fingerprint = g.fp and l.sent_at > now() - make_interval(secs => b.window_seconds);
      granted := least(b.requests - used, need + 1);
    end if;
    continue when granted <= 0;
    rid := gen_random_uuid();
    insert into private.esp_list_reads (id, key_fingerprint, provider, target_id, since, pages_granted, logged_at, locked_until)
    values (rid, g.fp, g.prov, g.tgt, since_v, granted, case when b.concurrent is null then now() end, now() + interval '2 minutes');
    insert into private.esp_list_read_readers (delivery_id, list_read_id)
    select x.id, rid from (
      select d.id from public.esp_deliveries d
      join public.esp_connections c on c.id = d.connection_id
      join public.newsletter_subscriptions s on s.id = d.subscription_id
      where c.key_fingerprint = g.fp and c.target_id = g.tgt and d.status = 'delivered'
        and private.esp_engagement_due(d, c.provider, s.confirmed_at, s.engagement_window_days, s.pay_rule = 'engaged' and s.engagement_decided_at is null)
      order by coalesce(d.engagement_checked_at, d.delivered_at)
      -- At most 10,000 readers a call (deliver-esp's CPU per run: bench/engaged-pay.ts); more wait for the next.
      limit 10000 - handed
      for update of d skip locked) x;
    get diagnostics used = row_count;
    if used = 0 then
      delete from private.esp_list_reads r where r.id = rid;
      continue;
    end if;
    handed := handed + used;
    -- The list read's one connection (Mailchimp counts connections by these leases).
    update public.esp_deliveries d set engagement_locked_until = now() + interval '2 minutes'
    where d.id = (select x.delivery_id from private.esp_list_read_readers x where x.list_read_id = rid limit 1);
    if b.concurrent is null then
      insert into private.esp_request_log (key_fingerprint, requests) values (g.fp, granted);
    end if;
    return query
    select rid, g.prov, g.tgt, v.decrypted_secret, since_v, granted, private.esp_list_page_size(g.prov),
      (select coalesce(jsonb_agg(jsonb_build_object('id', d.id, 'email', s.email::text, 'remote_id', d.remote_id)), '[]'::jsonb)
       from private.esp_list_read_readers x
       join public.esp_deliveries d on d.id = x.delivery_id
       join public.newsletter_subscriptions s on s.id = d.subscription_id
       where x.list_read_id = rid)
    from public.esp_connections c
    join vault.decrypted_secrets v on v.id = c.secret_id
    where c.id = g.conn;
    wanted := wanted - 1;
  end loop;
end
$function$;
comment on function public.claim_esp_engagement_lists(p_limit integer) is 'deliver-esp, service role only: hands out up to p_limit list reads of engagement, one per (API key, list) whose due readers outnumber the pages the read takes (private.esp_list_pages_estimate), with the decrypted key, since when to list members, the pages granted from the key''s budget (a page a request; on Mailchimp one connection) and the readers ({id, email, remote_id}; at most 10,000 a call) leased for 2 minutes. Run before claim_esp_engagement, which reads the rest one by one.';
revoke execute on function public.claim_esp_engagement_lists(p_limit integer) from public;
grant execute on function public.claim_esp_engagement_lists(p_limit integer) to service_role;

create function public.finish_esp_engagement_list(p_list_read_id uuid, p_reads jsonb, p_pages integer, p_complete boolean, p_total integer default null::integer, p_response_status integer default null::integer, p_error text default null::text, p_retry_after_ms integer default null::integer)
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
  update public.esp_deliveries d set engagement_locked_until = null,
    engagement_retry_at = case
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
comment on function public.finish_esp_engagement_list(p_list_read_id uuid, p_reads jsonb, p_pages integer, p_complete boolean, p_total integer, p_response_status integer, p_error text, p_retry_after_ms integer) is 'deliver-esp, service role only: records a list read in one call: each read ({id, engaged, opens, clicks, machine_opens, machine_clicks, clicked}) as finish_esp_engagement records one; the readers the list did not show wait 6 hours if it was complete (gone from the tool), Retry-After or 6 hours after a failure (a 429 pauses the key), else stay due; unread pages go back to the key''s budget; the tool''s count is kept for the next claim. Returns {state, read, missing, waiting}.';
revoke execute on function public.finish_esp_engagement_list(p_list_read_id uuid, p_reads jsonb, p_pages integer, p_complete boolean, p_total integer, p_response_status integer, p_error text, p_retry_after_ms integer) from public;
grant execute on function public.finish_esp_engagement_list(p_list_read_id uuid, p_reads jsonb, p_pages integer, p_complete boolean, p_total integer, p_response_status integer, p_error text, p_retry_after_ms integer) to service_role;

-- finish_esp_engagement (latest body: 20260521000100) asks the same rule as the list finish, so both give one verdict.
create or replace function public.finish_esp_engagement(p_id uuid, p_engaged boolean, p_opens integer default null::integer, p_clicks integer default null::integer, p_response_status integer default null::integer, p_error text default null::text, p_retry_after_ms integer default null::integer, p_machine_opens integer default null::integer, p_machine_clicks integer default null::integer, p_clicked boolean default null::boolean)
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  d public.esp_deliveries;
  fp text;
  delay interval;
begin
  select * into d from public.esp_deliveries e where e.id = p_id for update;
  if not found or d.status <> 'delivered' or d.engagement_locked_until is null or d.engagement_locked_until < now() then
    return 'missing';
  end if;
  if p_error is null then
    -- Providers report totals so far: once engaged, a later answer saying less does not take it back.
    -- What counts (PRODUCT "Pay for readers who read"): where the tool tells machines apart (it reports machine
    -- opens or clicks), any open or click by a person; where it cannot, only a click.
    update public.esp_deliveries set
      engaged = coalesce(d.engaged, false) or coalesce(p_engaged, false),
      opens = greatest(d.opens, case when p_opens >= 0 then p_opens end),
      clicks = greatest(d.clicks, case when p_clicks >= 0 then p_clicks end),
      machine_opens = greatest(d.machine_opens, case when p_machine_opens >= 0 then p_machine_opens end),
      machine_clicks = greatest(d.machine_clicks, case when p_machine_clicks >= 0 then p_machine_clicks end),
      counted_engagement = coalesce(d.counted_engagement, false)
        or private.esp_counted_engagement(p_opens, p_clicks, p_machine_opens, p_machine_clicks, p_clicked),
      engagement_checked_at = now(), engagement_locked_until = null, engagement_retry_at = null
    where id = p_id;
    return 'read';
  end if;
  -- A failed read waits Retry-After, else the usual 6 hours; a 429 pauses the whole key.
  delay := least(coalesce(case when p_retry_after_ms is not null then make_interval(secs => greatest(p_retry_after_ms, 0) / 1000.0) end,
    interval '6 hours'), interval '1 day');
  if p_response_status = 429 then
    select c.key_fingerprint into fp from public.esp_connections c where c.id = d.connection_id;
    insert into private.esp_key_pauses as p (key_fingerprint, paused_until) values (fp, now() + delay)
    on conflict (key_fingerprint) do update set paused_until = greatest(p.paused_until, excluded.paused_until);
  end if;
  update public.esp_deliveries set engagement_locked_until = null, engagement_retry_at = now() + delay where id = p_id;
  return 'waiting';
end
$function$;
