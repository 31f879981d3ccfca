-- Publishers choose with knowledge (issue 23, point 5): the offers a publisher can promote, with what each pays
-- them, and the readers of their sources that were not paid or were refunded, with the reason.
--
-- The platform fee (20%) is stated once in SQL, in private.publisher_earning; supabase/functions/_shared/rules/
-- commission.ts states it for TypeScript, and supabase/tests/rule-bounds.test.ts pins one to the other.
-- (confirm_subscription, refund_subscription and subscription_daily still multiply by 0.8 themselves; they are being
-- rewritten on another branch this wave, so they move to this function when those land — see docs/decisions.md.)

create function private.publisher_earning(p_price numeric)
 returns numeric
 language sql
 immutable
 set search_path to ''
as $function$
  select round(p_price * (1 - 0.20), 2)::numeric(12, 2)
$function$;
comment on function private.publisher_earning(p_price numeric) is 'Internal: the one SQL statement of the platform fee — what a publisher earns for a paid subscriber at this price (the price minus 20%, rounded to the cent).';
revoke execute on function private.publisher_earning(p_price numeric) from public;

create function public.publisher_offers()
 returns table(campaign_id uuid, name text, description text, image_url text, website_url text, category text, price numeric, earning numeric, funding_status text, subscribers_left integer, confirmation_rate numeric, settled_subscriptions integer)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select c.id, c.name, c.description, c.image_url, c.website_url, c.category, c.price_per_subscriber,
    private.publisher_earning(c.price_per_subscriber), c.funding_status,
    greatest(floor((c.budget_total - c.budget_spent - c.budget_reserved) / c.price_per_subscriber), 0)::integer,
    case when r.settled >= 5 then round(r.confirmed * 100.0 / r.settled, 1) end::numeric(5, 1),
    coalesce(r.settled, 0)::integer
  from public.campaigns c
  left join lateral (
    -- Subscriptions of the last 30 days whose outcome is known: confirmed, or no longer waiting for a click.
    select count(*) filter (where s.confirmed_at is not null) as confirmed,
      count(*) filter (where s.confirmed_at is not null or s.status <> 'pending' or s.token_expires_at <= now()) as settled
    from public.newsletter_subscriptions s
    where s.campaign_id = c.id and s.created_at > now() - interval '30 days'
  ) r on true
  where c.status = 'active' and (select auth.uid()) is not null
  order by c.funding_status = 'funded' desc, c.price_per_subscriber desc, c.name, c.id
$function$;
comment on function public.publisher_offers() is 'Every active newsletter a publisher can promote: what the publisher earns per paid subscriber (private.publisher_earning), its category, whether it can pay one more subscriber (funding_status) and how many its remaining budget still pays, and its confirmation rate over the last 30 days (null below 5 subscriptions with a known outcome).';
revoke execute on function public.publisher_offers() from anon, public;

create function public.publisher_unpaid_readers(p_limit integer default 25, p_offset integer default 0)
 returns table(subscription_id uuid, confirmed_at timestamp with time zone, source_id uuid, source_name text, campaign_id uuid, campaign_name text, reason text, detail text, lost_earning numeric, total_count integer)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select n.id, n.confirmed_at, s.id, s.name, c.id, c.name, n.not_counted_reason,
    case when n.not_counted_reason = 'refunded' then (
      select m.reason from public.moderation_events m
      where m.subject_type = 'subscription' and m.subject_id = n.id and m.new_status = 'rejected'
      order by m.created_at desc limit 1) end,
    case when n.not_counted_reason = 'refunded' and n.price is not null then private.publisher_earning(n.price) end,
    (count(*) over ())::integer
  from public.newsletter_subscriptions n
  join public.audience_sources s on s.id = n.audience_source_id
  join public.campaigns c on c.id = n.campaign_id
  where s.publisher_id = (select auth.uid())
    and n.confirmed_at is not null
    and n.not_counted_reason is not null
  order by n.confirmed_at desc, n.id
  limit least(greatest(coalesce(p_limit, 25), 1), 100)
  offset greatest(coalesce(p_offset, 0), 0)
$function$;
comment on function public.publisher_unpaid_readers(p_limit integer, p_offset integer) is 'The signed-in publisher''s readers who confirmed through their sources but were not paid, or were refunded, newest first, with the reason code (labelled by the one vocabulary), the refund''s stated reason and the earning it cancelled; never the reader''s email or address.';
revoke execute on function public.publisher_unpaid_readers(p_limit integer, p_offset integer) from anon, public;
