-- The low-balance email (issue 23, point 9): it fires only when the available credit cannot pay five more
-- subscribers at the highest price among the advertiser's active newsletters AND no such email went out since
-- the advertiser's last top-up. Before, the alert re-armed whenever the available balance rose again (a
-- reservation expiring, a refund), so an advertiser could be told twice without having done anything; now only
-- money they put in (a deposit, a credit or a bonus) re-arms it. private.low_balance_alerts keeps the time of
-- the last alert per advertiser.

create or replace function private.last_top_up_at(p_user_id uuid)
 returns timestamp with time zone
 language sql
 stable security definer
 set search_path to ''
as $function$
  select max(t.created_at) from public.wallet_transactions t
  where t.user_id = p_user_id and t.type in ('deposit', 'credit', 'bonus') and t.status = 'completed'
$function$;
comment on function private.last_top_up_at(p_user_id uuid) is 'Internal: when the advertiser last put money in (a completed deposit, credit or bonus); re-arms the low-balance email.';
revoke execute on function private.last_top_up_at(p_user_id uuid) from public;

create or replace function private.notify_low_balances()
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  r record;
  told integer := 0;
begin
  for r in
    select c.advertiser_id as user_id, 5 * max(c.price_per_subscriber) as threshold,
           private.wallet_available(c.advertiser_id) as available
    from public.campaigns c
    left join private.low_balance_alerts a on a.user_id = c.advertiser_id
    where c.status = 'active'
      and (a.user_id is null or private.last_top_up_at(c.advertiser_id) > a.alerted_at)
    group by c.advertiser_id
    having private.wallet_available(c.advertiser_id) < 5 * max(c.price_per_subscriber)
  loop
    insert into private.low_balance_alerts (user_id, alerted_at) values (r.user_id, now())
      on conflict (user_id) do update set alerted_at = excluded.alerted_at
      where private.last_top_up_at(excluded.user_id) > private.low_balance_alerts.alerted_at;
    if found then
      perform private.enqueue_notification(r.user_id, 'low_balance',
        jsonb_build_object('available', r.available, 'threshold', r.threshold), null);
      told := told + 1;
    end if;
  end loop;
  return told;
end
$function$;
comment on function private.notify_low_balances() is 'Scheduled every minute (notify-low-balances): a low-balance email when the available credit cannot pay five subscribers at the highest active price, at most once between two top-ups.';

comment on table private.low_balance_alerts is 'When each advertiser was last told their balance is low; a top-up after that time re-arms the alert.';
