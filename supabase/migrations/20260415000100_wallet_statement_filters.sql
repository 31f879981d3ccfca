-- The advertiser's wallet statement filtered and exported (issue 23 point 9, "no export or type filter on the
-- wallet"): wallet_statement gains a kind (the statement's own words: 'charge' or a ledger type other than 'hold',
-- which is always shown as a charge), a status (a charge's on_hold / charged / refunded, or a ledger status) and a
-- UTC date range, and returns up to 10,000 rows for a CSV export (MONEY_EXPORT_LIMIT, as the admin's Money
-- functions), still counting the matches. Its security is unchanged: a live session, the caller's own rows only
-- (auth.uid()), stable so the SPA reads it by GET. The limit and offset stay the first two arguments, so a call that
-- named them by position still means the same; a wrong argument is refused with a sentence, not clamped.

drop function public.wallet_statement(integer, integer);

create function public.wallet_statement(
  p_limit integer default 20,
  p_offset integer default 0,
  p_kind text default null::text,
  p_status text default null::text,
  p_from date default null::date,
  p_to date default null::date
)
 returns table(id uuid, occurred_at timestamp with time zone, kind text, status text, description text,
   amount numeric, refunded numeric, settled_at timestamp with time zone, total_count bigint)
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
    count(*) over ()
  from private.wallet_statement_of((select auth.uid())) s
  where (p_kind is null or s.kind = p_kind)
    and (p_status is null or s.status = p_status)
    and (p_from is null or s.occurred_at >= p_from::timestamp at time zone 'utc')
    and (p_to is null or s.occurred_at < (p_to + 1)::timestamp at time zone 'utc')
  order by s.occurred_at desc, s.id desc
  limit p_limit offset p_offset;
end
$function$;
comment on function public.wallet_statement(p_limit integer, p_offset integer, p_kind text, p_status text, p_from date, p_to date) is 'The signed-in user''s wallet statement, newest first, filtered by kind (charge or a ledger type), status (on_hold, charged, refunded or a ledger status) and UTC date range; a page at a time or up to 10,000 rows for a CSV export, each row with the number of matching rows: what the wallet''s transaction list shows and exports.';
revoke execute on function public.wallet_statement(p_limit integer, p_offset integer, p_kind text, p_status text, p_from date, p_to date) from anon, public;

comment on function private.check_admin_dates(p_from date, p_to date) is 'Internal: refuses a date range that ends before it starts (admin money searches and the wallet statement).';
