-- The publisher's Sources panel asks source_not_counted for all time (no range), and at 5,000,000 clicks that summed
-- every (source, day) row of not_counted_daily of the publisher's sources: 43-62 ms p50 at load 12 (budget 50 ms),
-- and it grows with every day the sources live. An all-time total per (source, kind, reason), kept by the writes to
-- not_counted_daily themselves, answers it from at most a few rows per source. A range still sums the daily rows.
--
-- Which rows count is the function's own rule: a source's own rows (clicks without a campaign, which already count
-- every click on the source) and its subscriptions; clicks recorded per campaign are left out.

create table private.not_counted_totals (
  audience_source_id uuid not null,
  kind text not null,
  reason text not null,
  total bigint not null,
  primary key (audience_source_id, kind, reason)
);
comment on table private.not_counted_totals is 'All-time sums of public.not_counted_daily per source, kind and reason (subscriptions, and clicks without a campaign), kept by private.keep_not_counted_totals; read by source_not_counted when no range is given.';
-- Internal: no API role reads or writes it (source_not_counted, a definer function, reads it), and no policy lets one.
alter table private.not_counted_totals enable row level security;

insert into private.not_counted_totals (audience_source_id, kind, reason, total)
select n.audience_source_id, n.kind, n.reason, sum(n.total)
from public.not_counted_daily n
where n.kind = 'subscription' or n.campaign_id is null
group by 1, 2, 3
having sum(n.total) <> 0;

-- One statement's rows at once (transition tables): the drain job's set-based upserts move each total once per run.
-- An upsert (insert ... on conflict do update) fires both the insert and the update trigger, each with its own rows.
create function private.keep_not_counted_totals()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_sources uuid[];
  v_kinds text[];
  v_reasons text[];
  v_totals bigint[];
begin
  -- Each statement names only the transition tables its event has (plpgsql parses a statement when it first runs).
  -- The keys in one order, so two statements moving the same totals lock them in the same order.
  if tg_op = 'INSERT' then
    select array_agg(d.audience_source_id order by d.audience_source_id, d.kind, d.reason), array_agg(d.kind order by d.audience_source_id, d.kind, d.reason),
           array_agg(d.reason order by d.audience_source_id, d.kind, d.reason), array_agg(d.total order by d.audience_source_id, d.kind, d.reason)
      into v_sources, v_kinds, v_reasons, v_totals
    from (select n.audience_source_id, n.kind, n.reason, sum(n.total)::bigint as total from new_rows n
          where n.kind = 'subscription' or n.campaign_id is null group by 1, 2, 3) d
    where d.total <> 0;
  elsif tg_op = 'UPDATE' then
    select array_agg(d.audience_source_id order by d.audience_source_id, d.kind, d.reason), array_agg(d.kind order by d.audience_source_id, d.kind, d.reason),
           array_agg(d.reason order by d.audience_source_id, d.kind, d.reason), array_agg(d.total order by d.audience_source_id, d.kind, d.reason)
      into v_sources, v_kinds, v_reasons, v_totals
    from (select x.audience_source_id, x.kind, x.reason, sum(x.total)::bigint as total
          from (select n.audience_source_id, n.kind, n.reason, n.campaign_id, n.total::bigint as total from new_rows n
                union all
                select o.audience_source_id, o.kind, o.reason, o.campaign_id, -o.total::bigint from old_rows o) x
          where x.kind = 'subscription' or x.campaign_id is null group by 1, 2, 3) d
    where d.total <> 0;
  else
    select array_agg(d.audience_source_id order by d.audience_source_id, d.kind, d.reason), array_agg(d.kind order by d.audience_source_id, d.kind, d.reason),
           array_agg(d.reason order by d.audience_source_id, d.kind, d.reason), array_agg(d.total order by d.audience_source_id, d.kind, d.reason)
      into v_sources, v_kinds, v_reasons, v_totals
    from (select o.audience_source_id, o.kind, o.reason, -sum(o.total)::bigint as total from old_rows o
          where o.kind = 'subscription' or o.campaign_id is null group by 1, 2, 3) d
    where d.total <> 0;
  end if;
  if v_sources is null then
    return null;
  end if;
  insert into private.not_counted_totals as t (audience_source_id, kind, reason, total)
  select * from unnest(v_sources, v_kinds, v_reasons, v_totals)
  on conflict (audience_source_id, kind, reason) do update set total = t.total + excluded.total;
  -- A total back at 0 is no row, as source_not_counted lists no reason that sums to 0.
  delete from private.not_counted_totals t
  using unnest(v_sources, v_kinds, v_reasons) k (audience_source_id, kind, reason)
  where t.audience_source_id = k.audience_source_id and t.kind = k.kind and t.reason = k.reason and t.total = 0;
  return null;
end
$function$;
comment on function private.keep_not_counted_totals() is 'Trigger: adds each statement''s change to public.not_counted_daily to private.not_counted_totals (a total back at 0 is removed).';
revoke execute on function private.keep_not_counted_totals() from public;

create trigger not_counted_totals_on_insert after insert on public.not_counted_daily
  referencing new table as new_rows for each statement execute function private.keep_not_counted_totals();
create trigger not_counted_totals_on_update after update on public.not_counted_daily
  referencing old table as old_rows new table as new_rows for each statement execute function private.keep_not_counted_totals();
create trigger not_counted_totals_on_delete after delete on public.not_counted_daily
  referencing old table as old_rows for each statement execute function private.keep_not_counted_totals();

-- 20260524000100_source_not_counted_index_only.sql's body, with all time (no range) read from the totals.
create or replace function public.source_not_counted(p_from date default null::date, p_to date default null::date)
 returns table(source_id uuid, kind text, reason text, label text, total bigint)
 language plpgsql
 stable security definer
 set search_path to ''
 set plan_cache_mode to 'force_custom_plan'
as $function$
begin
  perform private.check_figures_range(p_from, p_to);
  if p_from is null then
    return query
    select s.id, t.kind, t.reason, r.label, t.total
    from public.audience_sources s
    join private.not_counted_totals t on t.audience_source_id = s.id
    join public.not_counted_reasons r on r.code = t.reason
    where s.publisher_id = (select auth.uid())
    order by s.id, t.kind, r.position;
    return;
  end if;
  return query
  select s.id, t.kind, t.reason, r.label, t.total
  from public.audience_sources s
  cross join lateral (
    select n.kind, n.reason, sum(n.total)::bigint as total
    from public.not_counted_daily n
    where n.audience_source_id = s.id
      and (n.kind = 'subscription' or n.campaign_id is null)
      and n.day between p_from and p_to
    group by n.kind, n.reason
    having sum(n.total) <> 0
  ) t
  join public.not_counted_reasons r on r.code = t.reason
  where s.publisher_id = (select auth.uid())
  order by s.id, t.kind, r.position;
end
$function$;
comment on function public.source_not_counted(p_from date, p_to date) is 'The signed-in publisher''s not-counted totals per source, kind and reason (the same rows not_counted_figures sums for one source); all time from private.not_counted_totals.';
revoke execute on function public.source_not_counted(p_from date, p_to date) from public;
grant execute on function public.source_not_counted(p_from date, p_to date) to authenticated, service_role;
