-- Baseline, payouts: settling matured holds and publishers' payout requests.
--
-- One of the 13 files that replaced the 38 migrations of January 2026 (none had been applied to a hosted
-- database; docs/decisions.md), rendered from the schema they built with the changes listed in
-- supabase/tests/helpers/squash-changes.ts; supabase/tests/schema.test.ts proves everything else equal. The
-- history goes on in new migrations after these; the current state is read in supabase/schemas/.

-- === Tables ==============================================================================================

create table public.payout_requests (
  id uuid default gen_random_uuid() not null,
  publisher_id uuid not null,
  amount numeric(12,2) not null,
  status text default 'requested'::text not null,
  transaction_id uuid,
  paid_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  transfer_reference text,
  paid_by uuid,
  constraint payout_requests_pkey primary key (id),
  constraint payout_requests_amount_check check ((amount >= (50)::numeric)),
  constraint payout_requests_status_check check ((status = any ((enum_range(null::public.payout_status))::text[]))),
  constraint payout_requests_transfer_reference_check check (((char_length(transfer_reference) >= 3) and (char_length(transfer_reference) <= 200))),
  constraint payout_requests_paid_by_fkey foreign key (paid_by) references public.profiles(id) on delete set null,
  constraint payout_requests_publisher_id_fkey foreign key (publisher_id) references public.profiles(id) on delete cascade,
  constraint payout_requests_transaction_id_fkey foreign key (transaction_id) references public.wallet_transactions(id) on delete set null
);
alter table public.payout_requests enable row level security;
create index payout_requests_paid_by_idx on public.payout_requests using btree (paid_by) where (paid_by is not null);
create index payout_requests_publisher_idx on public.payout_requests using btree (publisher_id, created_at desc);
create index payout_requests_status_idx on public.payout_requests using btree (status, created_at);
create index payout_requests_transaction_idx on public.payout_requests using btree (transaction_id) where (transaction_id is not null);
comment on table public.payout_requests is 'A publisher''s request to be paid available earnings (minimum 50 credits); an admin marks it paid.';
comment on column public.payout_requests.transfer_reference is 'The bank or payment provider''s reference of the transfer that paid this request.';
revoke insert, update, delete, truncate, references, trigger on table public.payout_requests from anon, authenticated;
revoke truncate, references, trigger on table public.payout_requests from service_role;

create table public.settlement_failures (
  transaction_id uuid not null,
  user_id uuid not null,
  subscription_id uuid,
  type text not null,
  amount numeric(12,2) not null,
  reason text not null,
  attempts integer default 1 not null,
  first_failed_at timestamp with time zone default now() not null,
  last_failed_at timestamp with time zone default now() not null,
  resolved_at timestamp with time zone,
  constraint settlement_failures_pkey primary key (transaction_id),
  constraint settlement_failures_attempts_check check ((attempts > 0)),
  constraint settlement_failures_reason_check check ((char_length(reason) <= 1000)),
  constraint settlement_failures_subscription_id_fkey foreign key (subscription_id) references public.newsletter_subscriptions(id),
  constraint settlement_failures_transaction_id_fkey foreign key (transaction_id) references public.wallet_transactions(id),
  constraint settlement_failures_user_id_fkey foreign key (user_id) references public.profiles(id) on delete cascade
);
alter table public.settlement_failures enable row level security;
create index settlement_failures_open_idx on public.settlement_failures using btree (last_failed_at desc) where (resolved_at is null);
create index settlement_failures_subscription_idx on public.settlement_failures using btree (subscription_id);
create index settlement_failures_user_idx on public.settlement_failures using btree (user_id);
comment on table public.settlement_failures is 'Holds and earnings the scheduled settlement could not settle, with the last reason and how often it was tried; resolved_at is set when a later run settles the row. Admins read it; only settle_matured_holds writes it.';
revoke all on table public.settlement_failures from anon, authenticated;
revoke truncate, references, trigger on table public.settlement_failures from service_role;
grant select on table public.settlement_failures to authenticated;

-- === Functions ===========================================================================================

create function public.admin_mark_payout_paid(p_payout_id uuid, p_reference text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  r public.payout_requests;
  ref text := nullif(trim(p_reference), '');
  t uuid;
begin
  perform private.require_admin();
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
  perform private.lock_wallet(r.publisher_id);
  if private.wallet_available(r.publisher_id) < r.amount then
    raise exception 'The publisher''s available balance no longer covers this payout' using errcode = '22023';
  end if;
  t := private.post_ledger(r.publisher_id, -r.amount, 'payout', 'completed', 'Payout (transfer ' || ref || ')', 'payout:' || r.id);
  update public.payout_requests
    set status = 'paid', paid_at = now(), transaction_id = t, transfer_reference = ref, paid_by = (select auth.uid())
    where id = r.id returning * into r;
  perform private.log_moderation_event('payout_request', r.id, 'requested', 'paid', 'Transfer reference ' || ref);
  perform private.enqueue_notification(r.publisher_id, 'payout_paid',
    jsonb_build_object('amount', r.amount, 'reference', ref, 'paid_at', r.paid_at), 'payout_paid:' || r.id);
  return jsonb_build_object('id', r.id, 'status', r.status, 'amount', r.amount, 'transfer_reference', ref, 'transaction_id', t);
end
$function$;
comment on function public.admin_mark_payout_paid(p_payout_id uuid, p_reference text) is 'Admins (at aal2) mark a payout paid with its transfer reference: re-checks the balance under the wallet lock, writes the completed payout row, logs it and emails the publisher.';
revoke execute on function public.admin_mark_payout_paid(p_payout_id uuid, p_reference text) from anon, public;

create function private.publisher_balance_of(p_user_id uuid)
 returns table(pending numeric, available numeric, requested numeric, paid numeric)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select e.pending::numeric(12, 2), (b.balance - q.requested)::numeric(12, 2), q.requested::numeric(12, 2), p.paid::numeric(12, 2)
  from (select coalesce((select w.balance from public.wallet_balances w where w.user_id = p_user_id), 0) as balance) b,
       (select coalesce(sum(t.amount), 0) as pending from public.wallet_transactions t
        where t.user_id = p_user_id and t.type = 'earning' and t.status = 'pending') e,
       (select coalesce(sum(r.amount), 0) as requested from public.payout_requests r
        where r.publisher_id = p_user_id and r.status = 'requested') q,
       (select coalesce(-sum(t.amount), 0) as paid from public.wallet_transactions t
        where t.user_id = p_user_id and t.type = 'payout' and t.status = 'completed') p
$function$;
comment on function private.publisher_balance_of(p_user_id uuid) is 'A publisher''s money: pending (in screening), available (settled earnings − paid − requested), requested, paid.';
revoke execute on function private.publisher_balance_of(p_user_id uuid) from public;

create function public.request_payout(p_amount numeric)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  me uuid := (select auth.uid());
  r public.payout_requests;
begin
  perform private.require_aal2();
  if not exists (select 1 from public.profiles where id = me and user_type = 'publisher') then
    raise exception 'Only publishers can request payouts' using errcode = '42501';
  end if;
  if p_amount is null or p_amount < 50 then
    raise exception 'The minimum payout is 50 credits' using errcode = '22023';
  end if;
  if p_amount <> round(p_amount, 2) then
    raise exception 'Use at most two decimals' using errcode = '22023';
  end if;
  -- The wallet lock serialises two requests sent at once; the second sees the first as requested.
  perform private.lock_wallet(me);
  if (select available from private.publisher_balance_of(me)) < p_amount then
    raise exception 'You can only withdraw available earnings (% credits available)',
      to_char((select available from private.publisher_balance_of(me)), 'FM999999990.00') using errcode = '22023';
  end if;
  insert into public.payout_requests (publisher_id, amount) values (me, p_amount) returning * into r;
  return jsonb_build_object('id', r.id, 'amount', r.amount, 'status', r.status);
end
$function$;
comment on function public.request_payout(p_amount numeric) is 'Publishers ask to be paid: at least 50 credits and no more than available earnings minus open requests. Moves no money.';
revoke execute on function public.request_payout(p_amount numeric) from anon, public;

create function public.settle_matured_holds(p_now timestamp with time zone default now())
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  t public.wallet_transactions;
  settled integer := 0;
  available numeric;
  problem text;
begin
  -- Holds first, so an earning finds its subscriber's hold already settled in the same run.
  for t in
    select * from public.wallet_transactions
    where status = 'pending' and type in ('hold', 'earning') and available_at <= p_now
    order by type = 'earning', user_id, id
    for update skip locked
  loop
    begin
      if t.type = 'earning' then
        if t.subscription_id is not null and exists (
             select 1 from public.wallet_transactions h
             where h.subscription_id = t.subscription_id and h.type = 'hold' and h.status = 'pending') then
          raise exception 'Waiting for the advertiser''s hold on this subscriber to settle';
        end if;
        if private.finish_ledger(t.id, 'completed') then
          settled := settled + 1;
        end if;
      else
        perform private.lock_wallet(t.user_id);
        available := (select balance from public.wallet_balances where user_id = t.user_id);
        if available + t.amount < 0 then
          raise exception 'The advertiser''s balance (% credits) cannot pay this hold of % credits',
            to_char(available, 'FM999999990.00'), to_char(-t.amount, 'FM999999990.00');
        end if;
        -- A hold is released and the charge becomes a completed debit: what the advertiser finally paid.
        if private.finish_ledger(t.id, 'canceled', t.description || ' — released after screening') then
          perform private.post_ledger(t.user_id, t.amount, 'debit', 'completed',
            replace(t.description, ' (on hold during screening)', ''), t.reference, t.campaign_id, t.subscription_id);
          settled := settled + 1;
        end if;
      end if;
      update public.settlement_failures set resolved_at = now() where transaction_id = t.id and resolved_at is null;
      if found and t.type = 'hold' then
        perform private.log_moderation_event('subscription', t.subscription_id, 'settlement failed', 'settled', null);
      end if;
    exception when others then
      -- Everything this row did is undone (the block is a savepoint); the row stays pending for the next run.
      get stacked diagnostics problem = message_text;
      -- A hold that cannot settle goes into the admins' audit log once per failure (the table keeps the count).
      if t.type = 'hold' and t.subscription_id is not null and not exists (
           select 1 from public.settlement_failures f where f.transaction_id = t.id and f.resolved_at is null) then
        perform private.log_moderation_event('subscription', t.subscription_id, 'on hold', 'settlement failed', left(problem, 1000));
      end if;
      insert into public.settlement_failures (transaction_id, user_id, subscription_id, type, amount, reason)
      values (t.id, t.user_id, t.subscription_id, t.type::text, t.amount, left(problem, 1000))
      on conflict (transaction_id) do update set
        reason = excluded.reason, attempts = public.settlement_failures.attempts + 1,
        last_failed_at = now(), resolved_at = null;
    end;
  end loop;
  return settled;
end
$function$;
comment on function public.settle_matured_holds(p_now timestamp with time zone) is 'Scheduled, service role only: after screening each hold is released as a completed debit and each earning (once its hold settled) becomes available. Row by row: a row that cannot settle stays pending and is recorded in settlement_failures; the others settle. Returns how many rows settled.';
revoke execute on function public.settle_matured_holds(p_now timestamp with time zone) from anon, authenticated, public;

-- === Triggers ============================================================================================

create trigger payout_requests_immutable before update on public.payout_requests for each row execute function public.forbid_column_changes('publisher_id', 'amount');

create trigger payout_requests_reference_immutable before update on public.payout_requests for each row when ((old.transfer_reference is not null)) execute function public.forbid_column_changes('transfer_reference');

create trigger payout_requests_set_updated_at before update on public.payout_requests for each row execute function public.set_updated_at();

-- === Row-level security policies =========================================================================

create policy "Admins can read every payout request" on public.payout_requests
  for select to authenticated
  using (( select public.is_admin() as is_admin));
create policy "Payout requests are read only in a live session" on public.payout_requests as restrictive
  for select to authenticated
  using (( select public.session_is_live() as session_is_live));
create policy "Publishers can read their own payout requests" on public.payout_requests
  for select to authenticated
  using ((( select auth.uid() as uid) = publisher_id));

create policy "Admins can read settlement failures" on public.settlement_failures
  for select to authenticated
  using (( select public.is_admin() as is_admin));

-- === Scheduled jobs (pg_cron) ============================================================================

select cron.schedule('settle-matured-holds', '* * * * *', $job$select public.settle_matured_holds()$job$);
