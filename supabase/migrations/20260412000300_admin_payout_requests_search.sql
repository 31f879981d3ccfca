-- Admin payout requests: search, filters and CSV export (issue 23), as the ledger and deposits have them. The
-- Money page read payout_requests through PostgREST, 100 rows at most and no search; admin_payout_requests searches
-- by publisher email or name, transfer reference or Stripe's reason, filters by status and UTC dates, pages in the
-- database (or returns up to 10,000 rows for an export) and counts the matches. Requests still open (requested,
-- being sent, failed) come first, then the newest: those are the ones an admin acts on. Every row also carries
-- how many payouts are in flight and failed across the marketplace, whatever the filters, for the summary line.
create function public.admin_payout_requests(
  p_search text default null::text,
  p_status text default null::text,
  p_from date default null::date,
  p_to date default null::date,
  p_limit integer default 20,
  p_offset integer default 0
)
 returns table(id uuid, created_at timestamp with time zone, publisher_id uuid, publisher_email text,
   publisher_name text, amount numeric, status text, transfer_reference text, failure_reason text,
   failed_at timestamp with time zone, paid_at timestamp with time zone, attempts integer, total_count bigint,
   in_flight_count bigint, failed_count bigint)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  q text := nullif(trim(p_search), '');
begin
  perform private.require_admin();
  perform private.check_admin_dates(p_from, p_to);
  if p_status is not null and p_status <> all (enum_range(null::public.payout_status)::text[]) then
    raise exception 'Choose a status from the list' using errcode = '22023';
  end if;
  return query
  select r.id, r.created_at, r.publisher_id, p.email::text, p.full_name, r.amount, r.status, r.transfer_reference,
    r.failure_reason, r.failed_at, r.paid_at, r.attempts, count(*) over (),
    (select count(*) from public.payout_requests s where s.status = 'sending'),
    (select count(*) from public.payout_requests f where f.status = 'failed')
  from public.payout_requests r
  join public.profiles p on p.id = r.publisher_id
  where (q is null or p.email ilike '%' || q || '%' or p.full_name ilike '%' || q || '%'
         or r.transfer_reference ilike '%' || q || '%' or r.failure_reason ilike '%' || q || '%')
    and (p_status is null or r.status = p_status)
    and (p_from is null or r.created_at >= p_from::timestamp at time zone 'utc')
    and (p_to is null or r.created_at < (p_to + 1)::timestamp at time zone 'utc')
  order by r.status in ('requested', 'sending', 'failed') desc, r.created_at desc, r.id desc
  limit least(greatest(coalesce(p_limit, 20), 1), 10000) offset greatest(coalesce(p_offset, 0), 0);
end
$function$;
comment on function public.admin_payout_requests(p_search text, p_status text, p_from date, p_to date, p_limit integer, p_offset integer) is 'Admins: payout requests, open ones (requested, being sent, failed) first then newest, searched by publisher email or name, transfer reference or failure reason, filtered by status and UTC date range; a page at a time, or up to 10,000 rows for a CSV export; total_count is the number of matching rows, in_flight_count and failed_count the marketplace''s whatever the filters.';
revoke execute on function public.admin_payout_requests(p_search text, p_status text, p_from date, p_to date, p_limit integer, p_offset integer) from anon, public;
