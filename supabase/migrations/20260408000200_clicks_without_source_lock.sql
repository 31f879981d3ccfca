-- Issue 27, second step: the last row every click on one source shared.
--
-- With the aggregates off the click path (20260408000100), a hot source still ran at 75–78% of the same load spread
-- over 200 sources (p99 1.3×): the foreign key link_clicks.audience_source_id → audience_sources checks each new click
-- with `select … for key share` on the source's row, and 64 transactions holding a share lock on one row make
-- PostgreSQL build a new multixact for every locker. The same run without that foreign key: hot 102% of spread,
-- p99 0.91×.
--
-- The key is kept by two triggers instead, with no row lock: a click takes a shared advisory lock on its source and
-- checks the source exists; deleting a source takes that lock exclusively before refuse_deleting_evidence looks for
-- its clicks. A click and the deletion of its source therefore never both commit (the deletion waits for clicks in
-- flight and then sees them; a click that comes after the deletion sees no source and is refused).

alter table public.link_clicks drop constraint link_clicks_audience_source_id_fkey;

create function private.source_lock_key(p_source_id uuid)
 returns bigint
 language sql
 immutable parallel safe
 set search_path to ''
as $function$
  select hashtextextended('audience_source:' || p_source_id::text, 0)
$function$;
comment on function private.source_lock_key(p_source_id uuid) is 'Internal: the advisory lock key of one audience source (shared by its clicks, exclusive while it is deleted).';
revoke execute on function private.source_lock_key(p_source_id uuid) from public;

create function private.link_click_source_exists()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  perform pg_advisory_xact_lock_shared(private.source_lock_key(new.audience_source_id));
  if not exists (select 1 from public.audience_sources s where s.id = new.audience_source_id) then
    raise exception 'This click names a source that does not exist.' using errcode = '23503';
  end if;
  return new;
end
$function$;
comment on function private.link_click_source_exists() is 'Internal trigger: the foreign key of a click to its source without a row lock (a shared advisory lock on the source, exclusive while the source is deleted).';
revoke execute on function private.link_click_source_exists() from public;

create trigger link_clicks_source_exists before insert or update of audience_source_id on public.link_clicks
  for each row execute function private.link_click_source_exists();

create or replace function private.refuse_deleting_evidence()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_table_name = 'audience_sources' then
    -- Waits for the clicks in flight on this source (link_click_source_exists), then sees them.
    perform pg_advisory_xact_lock(private.source_lock_key(old.id));
  end if;
  if tg_table_name = 'audience_sources' and (
       exists (select 1 from public.link_clicks where audience_source_id = old.id)
       or exists (select 1 from public.newsletter_subscriptions where audience_source_id = old.id)) then
    raise exception 'This source has clicks or subscribers, so it can''t be deleted. Archive it instead.'
      using errcode = '23503';
  end if;
  if tg_table_name = 'campaigns' and (
       exists (select 1 from public.newsletter_subscriptions where campaign_id = old.id)
       or exists (select 1 from public.link_clicks where campaign_id = old.id)
       or exists (select 1 from public.wallet_transactions where campaign_id = old.id)) then
    raise exception 'This campaign has subscribers or payments, so it can''t be deleted. Archive it instead.'
      using errcode = '23503';
  end if;
  return old;
end
$function$;
