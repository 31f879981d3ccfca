-- Publisher payouts. request_payout only records a request (it reserves and moves nothing, so it can be
-- granted to signed-in publishers); admin_mark_payout_paid re-checks the balance under the wallet lock
-- and writes the payout ledger row. Money therefore moves only in a function admins alone can pass.

create table public.payout_requests (
  id uuid primary key default gen_random_uuid(),
  publisher_id uuid not null references public.profiles (id) on delete cascade,
  amount numeric(12, 2) not null check (amount >= 50),
  status text not null default 'requested' check (status in ('requested', 'paid', 'canceled')),
  transaction_id uuid references public.wallet_transactions (id) on delete set null,
  paid_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.payout_requests is
  'A publisher''s request to be paid available earnings (minimum 50 credits); an admin marks it paid.';
create index payout_requests_publisher_idx on public.payout_requests (publisher_id, created_at desc);
create index payout_requests_status_idx on public.payout_requests (status, created_at);
create index payout_requests_transaction_idx on public.payout_requests (transaction_id) where transaction_id is not null;

alter table public.payout_requests enable row level security;

create policy "Publishers can read their own payout requests"
  on public.payout_requests for select to authenticated
  using ((select auth.uid()) = publisher_id);
create policy "Admins can read every payout request"
  on public.payout_requests for select to authenticated
  using ((select public.is_admin()));

create trigger payout_requests_set_updated_at before update on public.payout_requests
  for each row execute function public.set_updated_at();
create trigger payout_requests_immutable before update on public.payout_requests
  for each row execute function public.forbid_column_changes('publisher_id', 'amount');

create function public.request_payout(p_amount numeric)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := (select auth.uid());
  open_requests numeric;
  r public.payout_requests;
begin
  if not exists (select 1 from public.profiles where id = me and user_type = 'publisher') then
    raise exception 'Only publishers can request payouts' using errcode = '42501';
  end if;
  if p_amount is null or p_amount < 50 then
    raise exception 'The minimum payout is 50 credits' using errcode = '22023';
  end if;
  perform public.lock_wallet(me);
  select coalesce(sum(amount), 0) into open_requests from public.payout_requests
    where publisher_id = me and status = 'requested';
  if public.wallet_available(me) - open_requests < p_amount then
    raise exception 'You can only withdraw available earnings' using errcode = '22023';
  end if;
  insert into public.payout_requests (publisher_id, amount) values (me, round(p_amount, 2)) returning * into r;
  return jsonb_build_object('id', r.id, 'amount', r.amount, 'status', r.status);
end
$$;
comment on function public.request_payout(numeric) is
  'Publishers ask to be paid: at least 50 credits and no more than available earnings minus open requests. Moves no money.';
revoke execute on function public.request_payout(numeric) from public, anon, authenticated;
grant execute on function public.request_payout(numeric) to authenticated;

create function public.admin_mark_payout_paid(p_payout_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  r public.payout_requests;
  t uuid;
begin
  perform public.require_admin();
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
  t := public.post_ledger(r.publisher_id, -r.amount, 'payout', 'completed', 'Payout', 'payout:' || r.id);
  update public.payout_requests set status = 'paid', paid_at = now(), transaction_id = t where id = r.id returning * into r;
  perform public.log_moderation_event('payout_request', r.id, 'requested', 'paid', null);
  return jsonb_build_object('id', r.id, 'status', r.status, 'transaction_id', t);
end
$$;
comment on function public.admin_mark_payout_paid(uuid) is
  'Admins mark a payout paid: re-checks the balance under the wallet lock, then writes the completed payout row.';
revoke execute on function public.admin_mark_payout_paid(uuid) from public, anon, authenticated;
grant execute on function public.admin_mark_payout_paid(uuid) to authenticated;
