-- An advertiser changing a price on Manage (a PATCH of campaigns) outside the range was answered with the check
-- constraint's name. The trigger says it in the words of the price rule (supabase/functions/_shared/rules/price.ts,
-- PRICE_MESSAGES, pinned by supabase/tests/rule-bounds.test.ts); the table's check stays the declaration.
create function private.require_price_in_range()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  if new.price_per_subscriber < 0.50 then
    raise exception 'Price per subscriber must be at least 0.50 credits' using errcode = '23514';
  elsif new.price_per_subscriber > 50.00 then
    raise exception 'Price per subscriber must be at most 50.00 credits' using errcode = '23514';
  end if;
  return new;
end
$function$;
comment on function private.require_price_in_range() is 'Trigger: refuses a price per subscriber outside 0.50–50.00 credits in a sentence, before the table''s check would name itself.';
revoke execute on function private.require_price_in_range() from public;

create trigger campaigns_price_in_words before insert or update of price_per_subscriber on public.campaigns
  for each row execute function private.require_price_in_range();
