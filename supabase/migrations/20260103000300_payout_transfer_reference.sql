-- Payouts are marked paid with the reference of the bank transfer that paid them (PRODUCT "Money"): the
-- admin states it after confirming the amount, the ledger row and the audit log carry it, the publisher
-- sees it in their history and gets an email.

alter table public.payout_requests
  add column transfer_reference text check (char_length(transfer_reference) between 3 and 200),
  add column paid_by uuid references public.profiles (id) on delete set null;
comment on column public.payout_requests.transfer_reference is 'The bank or payment provider''s reference of the transfer that paid this request.';
create index payout_requests_paid_by_idx on public.payout_requests (paid_by) where paid_by is not null;
create trigger payout_requests_reference_immutable before update on public.payout_requests
  for each row when (old.transfer_reference is not null) execute function public.forbid_column_changes('transfer_reference');

drop function public.admin_mark_payout_paid(uuid);

create function public.admin_mark_payout_paid(p_payout_id uuid, p_reference text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  r public.payout_requests;
  ref text := nullif(trim(p_reference), '');
  t uuid;
begin
  perform public.require_admin();
  if ref is null or char_length(ref) < 3 then
    raise exception 'Enter the transfer reference of the payment (at least 3 characters)' using errcode = '22023';
  end if;
  if char_length(ref) > 200 then
    raise exception 'The transfer reference can be at most 200 characters' using errcode = '22023';
  end if;
  select * into r from public.payout_requests where id = p_payout_id for update;
  if not found then
    raise exception 'Payout request not found' using errcode = 'P0002';
  end if;
  if r.status <> 'requested' then
    raise exception 'This payout was already handled' using errcode = '22023';
  end if;
  perform public.lock_wallet(r.publisher_id);
  if public.wallet_available(r.publisher_id) < r.amount then
    raise exception 'The publisher''s available balance no longer covers this payout' using errcode = '22023';
  end if;
  t := public.post_ledger(r.publisher_id, -r.amount, 'payout', 'completed', 'Payout (transfer ' || ref || ')', 'payout:' || r.id);
  update public.payout_requests
    set status = 'paid', paid_at = now(), transaction_id = t, transfer_reference = ref, paid_by = (select auth.uid())
    where id = r.id returning * into r;
  perform public.log_moderation_event('payout_request', r.id, 'requested', 'paid', 'Transfer reference ' || ref);
  perform private.enqueue_notification(r.publisher_id, 'payout_paid',
    jsonb_build_object('amount', r.amount, 'reference', ref, 'paid_at', r.paid_at), 'payout_paid:' || r.id);
  return jsonb_build_object('id', r.id, 'status', r.status, 'amount', r.amount, 'transfer_reference', ref, 'transaction_id', t);
end
$$;
comment on function public.admin_mark_payout_paid(uuid, text) is
  'Admins (at aal2) mark a payout paid with its transfer reference: re-checks the balance under the wallet lock, writes the completed payout row, logs it and emails the publisher.';
revoke execute on function public.admin_mark_payout_paid(uuid, text) from public, anon, authenticated;
grant execute on function public.admin_mark_payout_paid(uuid, text) to authenticated;

-- The publisher's own figures (fixed interface, ARCHITECTURE "money read by the screens"). The trust work
-- defines publisher_balance() in an earlier migration; this creates it only where that migration has not
-- run yet, with the same definition, so the payout screen and its tests work on either side of the merge.
do $do$
begin
  if to_regprocedure('public.publisher_balance()') is null then
    execute $fn$
      create function public.publisher_balance()
      returns table (pending numeric, available numeric, requested numeric, paid numeric)
      language sql stable
      security definer
      set search_path = ''
      as $$
        select e.pending::numeric(12, 2), (b.balance - q.requested)::numeric(12, 2), q.requested::numeric(12, 2), p.paid::numeric(12, 2)
        from (select coalesce((select w.balance from public.wallet_balances w where w.user_id = (select auth.uid())), 0) as balance) b,
             (select coalesce(sum(t.amount), 0) as pending from public.wallet_transactions t
              where t.user_id = (select auth.uid()) and t.type = 'earning' and t.status = 'pending') e,
             (select coalesce(sum(r.amount), 0) as requested from public.payout_requests r
              where r.publisher_id = (select auth.uid()) and r.status = 'requested') q,
             (select coalesce(-sum(t.amount), 0) as paid from public.wallet_transactions t
              where t.user_id = (select auth.uid()) and t.type = 'payout' and t.status = 'completed') p
      $$
    $fn$;
    comment on function public.publisher_balance() is
      'The signed-in publisher''s pending, available, requested and paid earnings (what request_payout checks).';
    revoke execute on function public.publisher_balance() from public, anon, authenticated;
    grant execute on function public.publisher_balance() to authenticated;
  end if;
end
$do$;
