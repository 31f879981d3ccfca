-- Admins act on anything (PRODUCT "Admin dashboard"): ban an approved campaign as well as a source, and
-- reinstate either; the audit log reads as names, not ids, page by page; the marketplace totals, the
-- advertiser's disputable subscribers and every figure behind them are computed here, exact at any size.

alter table public.campaigns drop constraint campaigns_status_check;
alter table public.campaigns add constraint campaigns_status_check
  check (status in ('draft', 'pending_review', 'active', 'paused', 'rejected', 'completed', 'archived', 'banned'));

create or replace function public.admin_set_campaign_status(p_campaign_id uuid, p_status text, p_reason text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  c public.campaigns;
  sub record;
begin
  perform public.require_admin();
  if p_status is null or p_status not in ('draft', 'pending_review', 'active', 'paused', 'rejected', 'completed', 'banned') then
    raise exception 'Unknown campaign status' using errcode = '22023';
  end if;
  if p_status in ('rejected', 'banned') and coalesce(trim(p_reason), '') = '' then
    raise exception 'Give a reason when rejecting or banning' using errcode = '22023';
  end if;
  if not exists (select 1 from public.campaigns where id = p_campaign_id) then
    raise exception 'Campaign not found' using errcode = 'P0002';
  end if;
  -- Lock order of the ledger: the advertiser's wallet, then the campaign.
  perform public.lock_wallet((select advertiser_id from public.campaigns where id = p_campaign_id));
  select * into c from public.campaigns where id = p_campaign_id for update;
  update public.campaigns set status = p_status, review_note = nullif(trim(p_reason), '') where id = p_campaign_id;
  perform public.log_moderation_event('campaign', p_campaign_id, c.status, p_status, p_reason);
  if p_status = 'banned' then
    -- Subscriptions still pending will never be paid for: their reservations go back to the advertiser.
    for sub in select n.id from public.newsletter_subscriptions n where n.campaign_id = p_campaign_id and n.reserved_amount > 0 loop
      perform private.release_reservation(sub.id);
    end loop;
  end if;
  return jsonb_build_object('id', p_campaign_id, 'status', p_status);
end
$$;
comment on function public.admin_set_campaign_status(uuid, text, text) is
  'Admins review, ban and reinstate campaigns; the reason becomes the advertiser-visible note and is audit-logged. Banning releases open reservations.';
revoke execute on function public.admin_set_campaign_status(uuid, text, text) from public, anon, authenticated;
grant execute on function public.admin_set_campaign_status(uuid, text, text) to authenticated, service_role;

-- The audit log as people read it: who did what to which named thing, newest first, a page at a time.
create function public.admin_audit_log(p_limit integer default 25, p_offset integer default 0, p_subject_type text default null)
returns table (
  id uuid, created_at timestamptz, actor_name text, subject_type text, subject_id uuid, subject_name text,
  old_status text, new_status text, reason text, total_count bigint
)
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  perform public.require_admin();
  return query
  select e.id, e.created_at,
    coalesce(nullif(a.full_name, ''), a.email::text, 'System'),
    e.subject_type, e.subject_id,
    coalesce(case e.subject_type
      when 'audience_source' then (select s.name from public.audience_sources s where s.id = e.subject_id)
      when 'campaign' then (select c.name from public.campaigns c where c.id = e.subject_id)
      when 'profile' then (select coalesce(nullif(p.full_name, '') || ' (' || p.email || ')', p.email::text) from public.profiles p where p.id = e.subject_id)
      when 'subscription' then (select n.email || ' → ' || c.name from public.newsletter_subscriptions n
                                join public.campaigns c on c.id = n.campaign_id where n.id = e.subject_id)
      when 'payout_request' then (select to_char(r.amount, 'FM999999990.00') || ' credits to ' || coalesce(nullif(p.full_name, ''), p.email::text)
                                  from public.payout_requests r join public.profiles p on p.id = r.publisher_id where r.id = e.subject_id)
      when 'dispute' then (select coalesce(nullif(p.full_name, ''), p.email::text) || ' about ' || s.name
                           from public.disputes d join public.profiles p on p.id = d.advertiser_id
                           join public.audience_sources s on s.id = d.audience_source_id where d.id = e.subject_id)
    end, '(deleted)'),
    e.old_status, e.new_status, e.reason,
    count(*) over ()
  from public.moderation_events e
  left join public.profiles a on a.id = e.actor_id
  where p_subject_type is null or e.subject_type = p_subject_type
  order by e.created_at desc, e.id
  limit least(greatest(coalesce(p_limit, 25), 1), 100) offset greatest(coalesce(p_offset, 0), 0);
end
$$;
comment on function public.admin_audit_log(integer, integer, text) is
  'Admins: the audit log with names (actor, subject) instead of ids, newest first, paginated; total_count is the size of the whole (filtered) log.';
revoke execute on function public.admin_audit_log(integer, integer, text) from public, anon, authenticated;
grant execute on function public.admin_audit_log(integer, integer, text) to authenticated;

-- The admin's marketplace totals, aggregated in the database over every row (never capped by max_rows).
create function public.admin_marketplace_totals()
returns table (
  wallets bigint, balance numeric, on_hold numeric, reserved numeric, pending_earnings numeric,
  spend numeric, earnings numeric, platform_fees numeric, open_payouts numeric, open_payout_count bigint,
  paid_out numeric, open_disputes bigint
)
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  perform public.require_admin();
  return query
  select
    (select count(*) from public.wallet_balances),
    (select coalesce(sum(w.balance), 0) from public.wallet_balances w)::numeric(14, 2),
    (select coalesce(-sum(t.amount), 0) from public.wallet_transactions t where t.type = 'hold' and t.status = 'pending')::numeric(14, 2),
    (select coalesce(sum(c.budget_reserved), 0) from public.campaigns c)::numeric(14, 2),
    (select coalesce(sum(t.amount), 0) from public.wallet_transactions t where t.type = 'earning' and t.status = 'pending')::numeric(14, 2),
    st.spend::numeric(14, 2), st.earnings::numeric(14, 2), (st.spend - st.earnings)::numeric(14, 2),
    (select coalesce(sum(r.amount), 0) from public.payout_requests r where r.status = 'requested')::numeric(14, 2),
    (select count(*) from public.payout_requests r where r.status = 'requested'),
    (select coalesce(sum(r.amount), 0) from public.payout_requests r where r.status = 'paid')::numeric(14, 2),
    (select count(*) from public.disputes d where d.status = 'open')
  from (select coalesce(sum(s.total_spend), 0) as spend, coalesce(sum(s.total_earnings), 0) as earnings
        from public.campaign_source_stats s) st;
end
$$;
comment on function public.admin_marketplace_totals() is
  'Admins: money across the marketplace (wallets, on hold, reserved, pending earnings, spend, earnings, fees, payouts, open disputes), exact at any number of rows.';
revoke execute on function public.admin_marketplace_totals() from public, anon, authenticated;
grant execute on function public.admin_marketplace_totals() to authenticated;

-- What an advertiser may flag: their own charged subscribers still in screening, by source.
create function public.disputable_subscribers(p_source_id uuid default null)
returns table (id uuid, email text, confirmed_at timestamptz, campaign_id uuid, campaign_name text,
               source_id uuid, source_name text, price numeric, in_dispute boolean)
language sql stable
security definer
set search_path = ''
as $$
  select n.id, n.email::text, n.confirmed_at, c.id, c.name, s.id, s.name, n.price,
         exists (select 1 from public.dispute_subscriptions ds join public.disputes d on d.id = ds.dispute_id
                 where ds.subscription_id = n.id and d.status = 'open')
  from public.newsletter_subscriptions n
  join public.campaigns c on c.id = n.campaign_id
  join public.audience_sources s on s.id = n.audience_source_id
  where c.advertiser_id = (select auth.uid())
    and (p_source_id is null or n.audience_source_id = p_source_id)
    and exists (select 1 from public.wallet_transactions t
                where t.subscription_id = n.id and t.type = 'hold' and t.status = 'pending')
  order by n.confirmed_at desc
  limit 500
$$;
comment on function public.disputable_subscribers(uuid) is
  'The signed-in advertiser''s charged subscribers still in screening (what open_dispute accepts), newest first.';
revoke execute on function public.disputable_subscribers(uuid) from public, anon, authenticated;
grant execute on function public.disputable_subscribers(uuid) to authenticated;
