-- Partners showed an engaged rate of its own: any open, machines' included, from 5 readers, where Offers, the
-- analytics and the directory count a person's open or a click from 20 readers. One reader set per source now
-- (private.source_engaged_readers), asked by engaged_rates and campaign_partner_sources alike.

create function private.source_engaged_readers(p_source_id uuid)
 returns table(readers integer, engaged integer, engaged_rate numeric)
 language sql
 stable
 set search_path to ''
as $function$
  -- The source's readers (any newsletter) whose window (engagement window, else the 7-day screening) has closed and
  -- whose email tool answered at least once; engaged = a counted open or click (esp_deliveries.counted_engagement).
  select count(*)::integer, count(*) filter (where r.counted)::integer,
    private.engaged_rate(count(*), count(*) filter (where r.counted))
  from (
    select s.id, bool_or(coalesce(d.counted_engagement, false)) as counted
    from public.newsletter_subscriptions s
    join public.esp_deliveries d on d.subscription_id = s.id and d.engagement_checked_at is not null
    where s.audience_source_id = p_source_id and s.confirmed_at is not null
      and s.confirmed_at + make_interval(days => coalesce(s.engagement_window_days, 7)) <= now()
    group by s.id
  ) r
$function$;
comment on function private.source_engaged_readers(p_source_id uuid) is 'Internal: a source''s readers whose engagement window closed and whose email tool answered, those with a counted open or click, and the rate (private.engaged_rate). Asked by engaged_rates and campaign_partner_sources; no API role calls it (both callers are definer functions).';
revoke execute on function private.source_engaged_readers(p_source_id uuid) from public;

create or replace function public.engaged_rates(p_source_ids uuid[])
 returns table(source_id uuid, readers integer, engaged integer, engaged_rate numeric)
 language sql
 stable security definer
 set search_path to ''
as $function$
  -- Public sources, or the caller's own (an admin's: any); the rate only from 20 readers on.
  select a.id, e.readers, e.engaged, e.engaged_rate
  from public.audience_sources a
  cross join lateral private.source_engaged_readers(a.id) e
  where a.id = any (p_source_ids) and cardinality(p_source_ids) <= 200
    and (public.is_source_public(a.status) or a.publisher_id = (select auth.uid()) or public.is_admin())
$function$;
-- Grants unchanged (create or replace keeps them): anon and authenticated read public sources' rates.

create or replace function public.campaign_partner_sources(p_campaign_id uuid)
 returns table(source_id uuid, source_name text, platform text, status text, price_override numeric, price numeric, earning numeric, message text, applied_at timestamp with time zone, decided_at timestamp with time zone, may_promote boolean, counted_clicks integer, confirmation_rate numeric, engaged_rate numeric, disputes integer, disputes_upheld integer, paid_subscribers integer)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_live_session();
  if not public.is_admin() and (select auth.role()) is distinct from 'service_role' and not exists (
      select 1 from public.campaigns where id = p_campaign_id and advertiser_id = (select auth.uid())) then
    raise exception 'You can only see the partners of your own newsletters' using errcode = '42501';
  end if;
  return query
  with candidates as (
    select p.source_id as id from public.campaign_partners p where p.campaign_id = p_campaign_id
    union
    select s.audience_source_id from public.campaign_source_stats s where s.campaign_id = p_campaign_id
  )
  select a.id, a.name, a.platform, p.status, p.price_override, private.partner_price(p_campaign_id, a.id),
    private.publisher_earning(private.partner_price(p_campaign_id, a.id)), p.message,
    -- A row the advertiser made by deciding (no application) was created at the decision.
    case when p.decided_at is null or p.created_at < p.decided_at then p.created_at end, p.decided_at,
    private.source_may_promote(p_campaign_id, a.id),
    a.quality_counted_clicks, a.quality_confirmation_rate,
    -- The engaged rate every other screen shows (engaged_rates): counted opens or clicks, from 20 readers.
    (select e.engaged_rate from private.source_engaged_readers(a.id) e),
    (select count(*)::integer from public.disputes d where d.audience_source_id = a.id),
    (select count(*)::integer from public.disputes d where d.audience_source_id = a.id and d.status = 'upheld'),
    coalesce((select st.total_conversions from public.campaign_source_stats st
              where st.campaign_id = p_campaign_id and st.audience_source_id = a.id), 0)::integer
  from candidates x
  join public.audience_sources a on a.id = x.id
  left join public.campaign_partners p on p.campaign_id = p_campaign_id and p.source_id = a.id
  order by p.status = 'applied' desc nulls last, p.created_at desc nulls last, a.name, a.id;
end
$function$;
comment on function public.campaign_partner_sources(p_campaign_id uuid) is 'The newsletter''s advertiser (or an admin): every source that applied, was decided about or brought it traffic, applications first, with its standing, price (its own or the newsletter''s) and what its publisher earns, whether it may promote, its 30-day quality as the directory shows it (counted clicks, confirmation rate), its engaged rate as engaged_rates gives it (counted opens or clicks of readers whose window closed; null below 20), the disputes about it (all, upheld) and the paid subscribers it brought this newsletter.';
revoke execute on function public.campaign_partner_sources(p_campaign_id uuid) from public;
grant execute on function public.campaign_partner_sources(p_campaign_id uuid) to authenticated, service_role;
