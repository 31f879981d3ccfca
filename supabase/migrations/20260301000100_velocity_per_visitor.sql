-- Velocity per visitor, and a looser limit per address (PRODUCT "What counts as a paid subscriber"; issue 23 point 6).
-- The rule counted a visitor hash or an address together: three people on one Wi-Fi made the fourth reader unpaid
-- under "one visitor". Now one visitor (address and browser) converts at most 3 times an hour for one source
-- (`velocity`), and one address at most 10 (`address_velocity`), each with its own label.

alter type public.not_counted_reason add value if not exists 'address_velocity' after 'velocity';

alter table public.newsletter_subscriptions drop constraint newsletter_subscriptions_not_counted_reason_check;
alter table public.newsletter_subscriptions add constraint newsletter_subscriptions_not_counted_reason_check
  check ((not_counted_reason = any (array['source_inactive'::text, 'self_referral'::text, 'disposable_email'::text, 'duplicate_email'::text, 'too_fast_confirmation'::text, 'no_click'::text, 'velocity'::text, 'address_velocity'::text, 'budget_exhausted'::text, 'refunded'::text])));

update public.not_counted_reasons set position = position + 1 where position >= 12;
insert into public.not_counted_reasons (code, label, applies_to, position) values
  ('address_velocity', 'More than 10 sign-ups an hour from one address', '{subscription}', 12);

create or replace function private.paid_subscriber_refusal(s public.newsletter_subscriptions, p_confirming boolean)
 returns text
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  src public.audience_sources;
  c public.campaigns;
begin
  select * into src from public.audience_sources where id = s.audience_source_id;
  select * into c from public.campaigns where id = s.campaign_id;
  if not found or not public.is_source_public(src.status) then
    return 'source_inactive';
  end if;
  if s.email_canonical in (
       select public.canonical_email(p.email::text) from public.profiles p where p.id in (src.publisher_id, c.advertiser_id)) then
    return 'self_referral';
  end if;
  -- Once per campaign, ever: an inbox that was paid for (even if refunded since) never pays twice.
  if s.first_paid_at is not null
     or exists (select 1 from public.newsletter_subscriptions o
                where o.campaign_id = s.campaign_id and o.email_canonical = s.email_canonical and o.id <> s.id
                  and o.first_paid_at is not null) then
    return 'duplicate_email';
  end if;
  if s.click_id is null
     or not private.click_backs_subscription(s.click_id, s.audience_source_id, s.subscribe_ip, s.subscribe_user_agent,
                                                coalesce(s.attributed_at, s.created_at)) then
    return 'no_click';
  end if;
  if p_confirming then
    -- One visitor (address and browser) converts at most 3 times an hour for one source; one address, shared by a
    -- household or an office Wi-Fi, at most 10. Each limit has its own reason, so the label says which.
    if (select count(*) from public.newsletter_subscriptions o
        where o.audience_source_id = s.audience_source_id and o.counted and o.id <> s.id
          and o.confirmed_at > now() - interval '1 hour'
          and o.visitor_hash = s.visitor_hash) >= 3 then
      return 'velocity';
    end if;
    if s.subscribe_ip is not null and (select count(*) from public.newsletter_subscriptions o
        where o.audience_source_id = s.audience_source_id and o.counted and o.id <> s.id
          and o.confirmed_at > now() - interval '1 hour'
          and o.subscribe_ip = s.subscribe_ip) >= 10 then
      return 'address_velocity';
    end if;
    if clock_timestamp() - s.armed_at < interval '2 seconds' then
      return 'too_fast_confirmation';
    end if;
  end if;
  return null;
end
$function$;
comment on function private.paid_subscriber_refusal(s public.newsletter_subscriptions, p_confirming boolean) is 'PRODUCT "What counts as a paid subscriber", in one place: null when the attributed subscriber is paid for, else the reason code.';
