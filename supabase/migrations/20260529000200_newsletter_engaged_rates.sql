-- Engaged rates everywhere (issue 39: "each source's engaged rate on Offers, on the advertiser's analytics and in the
-- public directory once it rests on enough readers"). Offers and analytics read each source's rate from
-- engaged_rates; the public directory reads each newsletter's from newsletter_engaged_rates, aggregates only (how many
-- readers it rests on, how many engaged, the rate), never a reader. The rate and its threshold of 20 readers are
-- stated once, in private.engaged_rate, which both ask.

create function private.engaged_rate(p_readers bigint, p_engaged bigint)
 returns numeric
 language sql
 immutable
 set search_path to ''
as $function$
  -- Below 20 readers a rate says little: none is given.
  select (case when p_readers >= 20 then round(p_engaged * 100.0 / p_readers, 1) end)::numeric(5, 1)
$function$;
comment on function private.engaged_rate(p_readers bigint, p_engaged bigint) is 'Internal: the engaged rate of readers whose window has closed and whose email tool answered (the share with a counted open or click, one decimal), null below 20 such readers ("enough readers"). Asked by engaged_rates and newsletter_engaged_rates.';
revoke execute on function private.engaged_rate(p_readers bigint, p_engaged bigint) from public;

create or replace function public.engaged_rates(p_source_ids uuid[])
 returns table(source_id uuid, readers integer, engaged integer, engaged_rate numeric)
 language sql
 stable security definer
 set search_path to ''
as $function$
  -- Readers of public sources whose window (engagement window, else the 7-day screening) has closed and whose email
  -- tool answered at least once; the rate only from 20 such readers on (private.engaged_rate).
  select a.id, count(r.id)::integer, count(r.id) filter (where r.counted)::integer,
    private.engaged_rate(count(r.id), count(r.id) filter (where r.counted))
  from public.audience_sources a
  left join lateral (
    select s.id, bool_or(coalesce(d.counted_engagement, false)) as counted
    from public.newsletter_subscriptions s
    join public.esp_deliveries d on d.subscription_id = s.id and d.engagement_checked_at is not null
    where s.audience_source_id = a.id and s.confirmed_at is not null
      and s.confirmed_at + make_interval(days => coalesce(s.engagement_window_days, 7)) <= now()
    group by s.id
  ) r on true
  where a.id = any (p_source_ids) and cardinality(p_source_ids) <= 200
    and (public.is_source_public(a.status) or a.publisher_id = (select auth.uid()) or public.is_admin())
  group by a.id
$function$;

create function public.newsletter_engaged_rates(p_campaign_ids uuid[])
 returns table(campaign_id uuid, readers integer, engaged integer, engaged_rate numeric)
 language sql
 stable security definer
 set search_path to ''
as $function$
  -- The same readers as engaged_rates, by newsletter: confirmed through Growletter, window closed, the email tool
  -- answered at least once. Newsletters in the directory (active), or the caller's own; aggregates only.
  select c.id, count(r.id)::integer, count(r.id) filter (where r.counted)::integer,
    private.engaged_rate(count(r.id), count(r.id) filter (where r.counted))
  from public.campaigns c
  left join lateral (
    select s.id, bool_or(coalesce(d.counted_engagement, false)) as counted
    from public.newsletter_subscriptions s
    join public.esp_deliveries d on d.subscription_id = s.id and d.engagement_checked_at is not null
    where s.campaign_id = c.id and s.confirmed_at is not null
      and s.confirmed_at + make_interval(days => coalesce(s.engagement_window_days, 7)) <= now()
    group by s.id
  ) r on true
  where c.id = any (p_campaign_ids) and cardinality(p_campaign_ids) <= 200
    and (c.status = 'active' or c.advertiser_id = (select auth.uid()) or public.is_admin())
  group by c.id
$function$;
comment on function public.newsletter_engaged_rates(p_campaign_ids uuid[]) is 'Each named newsletter''s engaged rate (at most 200 at a time; active newsletters, or the caller''s own), for the public directory: of its readers whose window has closed and whose email tool answered, how many, how many engaged, and the share (private.engaged_rate: null below 20 readers). Aggregates only, never a reader.';
revoke execute on function public.newsletter_engaged_rates(p_campaign_ids uuid[]) from public;
grant execute on function public.newsletter_engaged_rates(p_campaign_ids uuid[]) to anon, authenticated, service_role;
