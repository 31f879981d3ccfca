-- Open payouts in the admin's marketplace totals include transfers in flight (issue 24): a payout being sent
-- through Stripe is still money owed until finish_payout records it paid or failed (a failed one is available to
-- the publisher again, so it is not counted as open).

create or replace function public.admin_marketplace_totals()
 returns table(wallets bigint, balance numeric, on_hold numeric, reserved numeric, pending_earnings numeric, spend numeric, earnings numeric, platform_fees numeric, open_payouts numeric, open_payout_count bigint, paid_out numeric, open_disputes bigint)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_admin();
  return query
  select
    (select count(*) from public.wallet_balances),
    (select coalesce(sum(w.balance), 0) from public.wallet_balances w)::numeric(14, 2),
    (select coalesce(-sum(t.amount), 0) from public.wallet_transactions t where t.type = 'hold' and t.status = 'pending')::numeric(14, 2),
    (select coalesce(sum(c.budget_reserved), 0) from public.campaigns c)::numeric(14, 2),
    (select coalesce(sum(t.amount), 0) from public.wallet_transactions t where t.type = 'earning' and t.status = 'pending')::numeric(14, 2),
    st.spend::numeric(14, 2), st.earnings::numeric(14, 2), (st.spend - st.earnings)::numeric(14, 2),
    (select coalesce(sum(r.amount), 0) from public.payout_requests r where r.status in ('requested', 'sending'))::numeric(14, 2),
    (select count(*) from public.payout_requests r where r.status in ('requested', 'sending')),
    (select coalesce(sum(r.amount), 0) from public.payout_requests r where r.status = 'paid')::numeric(14, 2),
    (select count(*) from public.disputes d where d.status = 'open')
  from (select coalesce(sum(s.total_spend), 0) as spend, coalesce(sum(s.total_earnings), 0) as earnings
        from public.campaign_source_stats s) st;
end
$function$;
comment on function public.admin_marketplace_totals() is 'Admins: money across the marketplace (wallets, on hold, reserved, pending earnings, spend, earnings, fees, open payouts including transfers in flight, paid out, open disputes), exact at any number of rows.';
revoke execute on function public.admin_marketplace_totals() from anon, public;
