-- A source rejected or banned while its subscribers are still in screening refunds the advertisers' holds and
-- cancels the publisher's pending earnings, in the ledger, with the reason (PRODUCT "Refunds"); its open
-- reservations are released too. Before, those earnings settled a week later and could be paid out.

create or replace function public.admin_set_source_status(p_source_id uuid, p_status text, p_reason text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  previous text;
  sub record;
  refunded integer := 0;
begin
  perform public.require_admin();
  if p_status is null or p_status not in ('approved', 'live', 'verified', 'pending', 'pending_review', 'under_review', 'rejected', 'banned', 'archived') then
    raise exception 'Unknown source status' using errcode = '22023';
  end if;
  if p_status in ('rejected', 'banned') and coalesce(trim(p_reason), '') = '' then
    raise exception 'Give a reason when rejecting or banning' using errcode = '22023';
  end if;
  select status into previous from public.audience_sources where id = p_source_id for update;
  if not found then
    raise exception 'Source not found' using errcode = 'P0002';
  end if;
  update public.audience_sources set status = p_status, review_note = nullif(trim(p_reason), '') where id = p_source_id;
  perform public.log_moderation_event('audience_source', p_source_id, previous, p_status, p_reason);

  if p_status in ('rejected', 'banned') then
    -- Subscribers still in screening: the hold is refunded and the earning cancelled.
    for sub in
      select distinct t.subscription_id as id from public.wallet_transactions t
      join public.newsletter_subscriptions n on n.id = t.subscription_id
      where n.audience_source_id = p_source_id and n.counted and t.type = 'hold' and t.status = 'pending'
    loop
      perform public.refund_subscription(sub.id, 'Source ' || p_status || ': ' || trim(p_reason));
      refunded := refunded + 1;
    end loop;
    -- Pending subscribers: their reservations go back to the advertisers (they will confirm unpaid).
    for sub in
      select n.id, c.advertiser_id from public.newsletter_subscriptions n join public.campaigns c on c.id = n.campaign_id
      where n.audience_source_id = p_source_id and n.reserved_amount > 0
      order by c.advertiser_id
    loop
      perform public.lock_wallet(sub.advertiser_id);
      perform private.release_reservation(sub.id);
    end loop;
  end if;
  return jsonb_build_object('id', p_source_id, 'status', p_status, 'refunded_subscribers', refunded);
end
$$;
comment on function public.admin_set_source_status(uuid, text, text) is
  'Admins review sources; the reason becomes the publisher-visible review note and is audit-logged. Rejecting or banning refunds subscribers still in screening and releases open reservations.';
