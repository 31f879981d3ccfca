-- Exports that carry what a person needs to reconcile (issue 38; PRODUCT "Words and numbers, second pass").
--
-- admin_ledger: beside each ledger row, what the advertiser's statement shows for it. A refunded charge's 0.00
-- release (its hold cancelled) carries the amount given back (`refunded`), so the admin's ledger and its CSV read it
-- as the refund the advertiser's statement shows ("4.00 credits refunded"), never "Release · 0.00"; and every row
-- names its subscriber, source and newsletter, and a deposit its Stripe payment (or checkout session).
-- wallet_statement: the same subscriber, source and Stripe reference on the advertiser's own statement and CSV.
-- Both change their returned columns, so each is dropped and made again (same arguments, same checks).

drop function public.admin_ledger(p_search text, p_type text, p_status text, p_from date, p_to date, p_limit integer, p_offset integer);
create function public.admin_ledger(p_search text default null::text, p_type text default null::text, p_status text default null::text, p_from date default null::date, p_to date default null::date, p_limit integer default 20, p_offset integer default 0)
 returns table(id uuid, created_at timestamp with time zone, user_id uuid, user_email text, user_name text, amount numeric, type text, status text, description text, reference text, available_at timestamp with time zone, total_count bigint, refunded numeric, subscriber_email text, source_name text, newsletter_name text, stripe_reference text)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  q text := nullif(trim(p_search), '');
begin
  perform private.require_admin();
  perform private.check_admin_dates(p_from, p_to);
  if p_type is not null and p_type <> all (enum_range(null::public.transaction_type)::text[]) then
    raise exception 'Choose a transaction type from the list' using errcode = '22023';
  end if;
  if p_status is not null and p_status <> all (enum_range(null::public.transaction_status)::text[]) then
    raise exception 'Choose a status from the list' using errcode = '22023';
  end if;
  return query
  select t.id, t.created_at, t.user_id, p.email::text, p.full_name, t.amount, t.type, t.status, t.description,
    t.reference, t.available_at, count(*) over (),
    -- A refund gives back a hold: the release is 0.00 and the cancelled hold's amount is what was refunded.
    (case when t.type = 'release' and t.amount = 0 and t.subscription_id is not null then coalesce((
      select -h.amount from public.wallet_transactions h
      where h.subscription_id = t.subscription_id and h.user_id = t.user_id and h.type = 'hold' and h.status = 'canceled'
      order by h.created_at desc limit 1), 0) else 0 end)::numeric(12, 2),
    n.email::text, a.name, c.name, coalesce(d.stripe_payment_intent, d.stripe_session_id)
  from public.wallet_transactions t
  join public.profiles p on p.id = t.user_id
  left join public.newsletter_subscriptions n on n.id = t.subscription_id
  left join public.audience_sources a on a.id = n.audience_source_id
  left join public.campaigns c on c.id = coalesce(t.campaign_id, n.campaign_id)
  left join public.deposits d on d.transaction_id = t.id
  where (q is null or p.email ilike '%' || q || '%' or p.full_name ilike '%' || q || '%'
         or t.reference ilike '%' || q || '%' or t.description ilike '%' || q || '%')
    and (p_type is null or t.type = p_type)
    and (p_status is null or t.status = p_status)
    and (p_from is null or t.created_at >= p_from::timestamp at time zone 'utc')
    and (p_to is null or t.created_at < (p_to + 1)::timestamp at time zone 'utc')
  order by t.created_at desc, t.id desc
  limit least(greatest(coalesce(p_limit, 20), 1), 10000) offset greatest(coalesce(p_offset, 0), 0);
end
$function$;
comment on function public.admin_ledger(p_search text, p_type text, p_status text, p_from date, p_to date, p_limit integer, p_offset integer) is 'Admins: ledger rows newest first, searched by user email or name, reference or description, filtered by type, status and UTC date range; a page at a time, or up to 10,000 rows for a CSV export; total_count is the number of matching rows. Each row names its subscriber, source, newsletter and (a deposit) its Stripe payment; a refunded charge''s 0.00 release carries the amount given back (refunded), as the advertiser''s statement shows it.';
revoke execute on function public.admin_ledger(p_search text, p_type text, p_status text, p_from date, p_to date, p_limit integer, p_offset integer) from public;
grant execute on function public.admin_ledger(p_search text, p_type text, p_status text, p_from date, p_to date, p_limit integer, p_offset integer) to authenticated, service_role;

drop function public.wallet_statement(p_limit integer, p_offset integer, p_kind text, p_status text, p_from date, p_to date);
create function public.wallet_statement(p_limit integer default 20, p_offset integer default 0, p_kind text default null::text, p_status text default null::text, p_from date default null::date, p_to date default null::date)
 returns table(id uuid, occurred_at timestamp with time zone, kind text, status text, description text, amount numeric, refunded numeric, settled_at timestamp with time zone, total_count bigint, subscriber_email text, source_name text, reference text)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_live_session();
  if p_limit is null or p_limit < 1 or p_limit > 10000 then
    raise exception 'Ask for 1 to 10,000 rows at a time' using errcode = '22023';
  end if;
  if p_offset is null or p_offset < 0 then
    raise exception 'The page cannot be before the first' using errcode = '22023';
  end if;
  -- The kinds private.wallet_statement_of gives: a charge (the hold row and its lifecycle) or any other ledger type.
  if p_kind is not null and p_kind <> all (
    array['charge'] || array_remove(enum_range(null::public.transaction_type)::text[], 'hold')
  ) then
    raise exception 'Choose a transaction type from the list' using errcode = '22023';
  end if;
  if p_status is not null and p_status <> all (
    array['on_hold', 'charged', 'refunded'] || enum_range(null::public.transaction_status)::text[]
  ) then
    raise exception 'Choose a status from the list' using errcode = '22023';
  end if;
  perform private.check_admin_dates(p_from, p_to);
  return query
  select s.id, s.occurred_at, s.kind, s.status, s.description, s.amount, s.refunded, s.settled_at,
    count(*) over (),
    -- What the advertiser reconciles with: the subscriber and source of a charge, the Stripe payment of a deposit.
    n.email::text, a.name, coalesce(d.stripe_payment_intent, d.stripe_session_id, t.reference)
  from private.wallet_statement_of((select auth.uid())) s
  join public.wallet_transactions t on t.id = s.id
  left join public.newsletter_subscriptions n on n.id = t.subscription_id
  left join public.audience_sources a on a.id = n.audience_source_id
  left join public.deposits d on d.transaction_id = t.id
  where (p_kind is null or s.kind = p_kind)
    and (p_status is null or s.status = p_status)
    and (p_from is null or s.occurred_at >= p_from::timestamp at time zone 'utc')
    and (p_to is null or s.occurred_at < (p_to + 1)::timestamp at time zone 'utc')
  order by s.occurred_at desc, s.id desc
  limit p_limit offset p_offset;
end
$function$;
comment on function public.wallet_statement(p_limit integer, p_offset integer, p_kind text, p_status text, p_from date, p_to date) is 'The signed-in user''s wallet statement, newest first, filtered by kind (charge or a ledger type), status (on_hold, charged, refunded or a ledger status) and UTC date range; a page at a time or up to 10,000 rows for a CSV export, each row with the number of matching rows, and the subscriber, source and reference (a deposit''s Stripe payment, else the ledger reference) to reconcile it: what the wallet''s transaction list shows and exports.';
revoke execute on function public.wallet_statement(p_limit integer, p_offset integer, p_kind text, p_status text, p_from date, p_to date) from public;
grant execute on function public.wallet_statement(p_limit integer, p_offset integer, p_kind text, p_status text, p_from date, p_to date) to authenticated, service_role;

-- The subscribers CSV names a refunded reader as refunded (their status is rejected, the reason refunded).
create or replace function public.campaign_subscribers_export(p_campaign_id uuid, p_after_confirmed_at timestamp with time zone default null::timestamp with time zone, p_after_id uuid default null::uuid, p_limit integer default 1000)
 returns table(id uuid, email text, confirmed_at timestamp with time zone, source_name text, status text, charged text)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.check_subscriber_reader(p_campaign_id);
  if p_limit is null or p_limit < 1 or p_limit > 5000 then
    raise exception 'Ask for 1 to 5000 subscribers at a time' using errcode = '22023';
  end if;
  return query
  select s.id, s.email::text, s.confirmed_at, a.name,
    case when s.not_counted_reason = 'refunded' then 'refunded' else s.status end,
    case when s.counted then 'yes' when s.audience_source_id is null then 'no (no source)' else 'no (' || coalesce(r.label, s.not_counted_reason, 'not counted') || ')' end
  from public.newsletter_subscriptions s
  left join public.audience_sources a on a.id = s.audience_source_id
  left join public.not_counted_reasons r on r.code = s.not_counted_reason
  where s.campaign_id = p_campaign_id and s.confirmed_at is not null
    and (p_after_confirmed_at is null or (s.confirmed_at, s.id) < (p_after_confirmed_at, p_after_id))
  order by s.confirmed_at desc, s.id desc
  limit p_limit;
end
$function$;
comment on function public.campaign_subscribers_export(p_campaign_id uuid, p_after_confirmed_at timestamp with time zone, p_after_id uuid, p_limit integer) is 'export-subscribers: the next page of a campaign''s confirmed subscribers after (confirmed_at, id), newest first, for the CSV; a refunded reader''s status reads refunded. Never a pending address.';
revoke execute on function public.campaign_subscribers_export(p_campaign_id uuid, p_after_confirmed_at timestamp with time zone, p_after_id uuid, p_limit integer) from public;
grant execute on function public.campaign_subscribers_export(p_campaign_id uuid, p_after_confirmed_at timestamp with time zone, p_after_id uuid, p_limit integer) to authenticated, service_role;
