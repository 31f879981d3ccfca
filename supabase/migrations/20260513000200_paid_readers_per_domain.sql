-- Paid readers from one email domain (issue 37, "Scripted readers get paid").
--
-- The attack: twelve scripted readers, each with its own address, browser, fingerprint and inbox on one catch-all
-- domain, all became paid subscribers of one source. Every per-visitor and per-address rule passed: only the domain
-- was shared.
--
-- The rule (private.paid_subscriber_refusal, at confirmation): through one source, at most 3 distinct readers of one
-- email domain are paid in any 24 hours; the next one is confirmed unpaid with the reason `domain_velocity`. The
-- domain is the registrable one (acme.com for bob@mail.acme.com, acme.co.uk for ann@acme.co.uk), so subdomains of a
-- catch-all do not make new domains. Webmail (private.freemail_domains: Gmail, Outlook, Yahoo, iCloud, Proton, GMX,
-- …), where millions of unrelated people share a domain, is never limited by it.
--
-- Why 3 a day: a source that really reaches a company's staff brings a few colleagues a day (they all count); a
-- catch-all farm needs dozens to be worth running, and now gets 3 a day per source. A reader already paid through the
-- source for another newsletter that day does not take a second place, so colleagues subscribing to several
-- newsletters still count. The per-visitor (3 an hour) and per-address (10 an hour) rules are unchanged.
--
-- Admins see the evidence on a source's page: admin_source_domains, per domain, the confirmed readers, how many were
-- paid, how many this rule refused, and when one was last seen.

alter type public.not_counted_reason add value if not exists 'domain_velocity' after 'address_velocity';

alter table public.newsletter_subscriptions drop constraint newsletter_subscriptions_not_counted_reason_check;
alter table public.newsletter_subscriptions add constraint newsletter_subscriptions_not_counted_reason_check
  check ((not_counted_reason = any (array['source_inactive'::text, 'account_suspended'::text, 'self_referral'::text, 'disposable_email'::text, 'duplicate_email'::text, 'too_fast_confirmation'::text, 'no_click'::text, 'velocity'::text, 'address_velocity'::text, 'domain_velocity'::text, 'budget_exhausted'::text, 'refunded'::text])));

update public.not_counted_reasons set position = position + 1 where position >= 14;
insert into public.not_counted_reasons (code, label, applies_to, position) values
  ('domain_velocity', 'More than 3 readers a day from one email domain', '{subscription}', 14);

-- === Domains ===============================================================================================

create function public.email_domain(p_email text)
 returns text
 language sql
 immutable parallel safe
 set search_path to ''
as $function$
  select case
    when n <= 2 then host
    -- A country's second level (co.uk, com.au, ac.jp, …) is a public suffix: keep one more label.
    when labels[n] ~ '^[a-z]{2}$'
         and labels[n - 1] in ('ac', 'co', 'com', 'edu', 'go', 'gov', 'ltd', 'mil', 'ne', 'net', 'nic', 'or', 'org', 'plc', 'sch')
      then array_to_string(labels[n - 2:n], '.')
    else array_to_string(labels[n - 1:n], '.')
  end
  from (select host, string_to_array(host, '.') as labels, cardinality(string_to_array(host, '.')) as n
        from (select rtrim(lower(split_part(trim(coalesce(p_email, '')), '@', 2)), '.') as host) h) parts
$function$;
comment on function public.email_domain(p_email text) is 'The registrable domain of an address (acme.com for bob@mail.acme.com, acme.co.uk for ann@acme.co.uk), so a catch-all''s subdomains count as one domain. Public like canonical_email: an index of newsletter_subscriptions computes it with the rights of whoever writes a row (the service role).';
revoke execute on function public.email_domain(p_email text) from public;
grant execute on function public.email_domain(p_email text) to service_role;

create table private.freemail_domains (
  domain text not null,
  constraint freemail_domains_pkey primary key (domain),
  constraint freemail_domains_domain_check check (domain ~ '^[a-z0-9-]+(\.[a-z0-9-]+)*(\.\*)?$')
);
alter table private.freemail_domains enable row level security;
revoke all on table private.freemail_domains from public;
comment on table private.freemail_domains is 'Webmail domains, where unrelated people share a domain: exempt from the per-domain limit on paid readers. A row ending in .* names a provider under every suffix (yahoo.* is yahoo.com, yahoo.co.uk, yahoo.fr, …). The one list: add a provider here.';

insert into private.freemail_domains (domain) values
  ('gmail.com'), ('googlemail.com'),
  ('outlook.*'), ('hotmail.*'), ('live.com'), ('live.co.uk'), ('live.fr'), ('live.nl'), ('live.de'), ('live.it'),
  ('live.ca'), ('live.com.au'), ('msn.com'), ('passport.com'),
  ('yahoo.*'), ('ymail.com'), ('rocketmail.com'),
  ('icloud.com'), ('me.com'), ('mac.com'),
  ('aol.*'), ('aim.com'),
  ('proton.me'), ('protonmail.com'), ('protonmail.ch'), ('pm.me'),
  ('gmx.*'), ('web.de'), ('t-online.de'), ('freenet.de'), ('posteo.de'), ('mailbox.org'),
  ('mail.com'), ('email.com'), ('usa.com'),
  ('yandex.*'), ('ya.ru'), ('mail.ru'), ('rambler.ru'), ('bk.ru'), ('inbox.ru'), ('list.ru'),
  ('zoho.com'), ('zohomail.com'), ('fastmail.com'), ('fastmail.fm'), ('hey.com'), ('hushmail.com'),
  ('tutanota.com'), ('tutanota.de'), ('tuta.io'), ('tuta.com'), ('duck.com'),
  ('orange.fr'), ('wanadoo.fr'), ('free.fr'), ('laposte.net'), ('sfr.fr'),
  ('libero.it'), ('virgilio.it'), ('tiscali.it'), ('alice.it'),
  ('wp.pl'), ('o2.pl'), ('interia.pl'), ('onet.pl'), ('seznam.cz'), ('centrum.cz'),
  ('btinternet.com'), ('sky.com'), ('virginmedia.com'), ('ntlworld.com'), ('talktalk.net'),
  ('comcast.net'), ('verizon.net'), ('att.net'), ('sbcglobal.net'), ('bellsouth.net'), ('cox.net'),
  ('charter.net'), ('earthlink.net'), ('optonline.net'),
  ('shaw.ca'), ('rogers.com'), ('sympatico.ca'), ('telus.net'),
  ('bigpond.com'), ('optusnet.com.au'),
  ('qq.com'), ('163.com'), ('126.com'), ('sina.com'), ('naver.com'), ('daum.net'), ('hanmail.net'),
  ('rediffmail.com'), ('uol.com.br'), ('bol.com.br'), ('terra.com.br');

create function private.is_freemail_domain(p_domain text)
 returns boolean
 language sql
 stable security definer
 set search_path to ''
as $function$
  select exists (select 1 from private.freemail_domains f
                 where f.domain in (p_domain, split_part(p_domain, '.', 1) || '.*'))
$function$;
comment on function private.is_freemail_domain(p_domain text) is 'Internal: whether a registrable domain (public.email_domain) is webmail, listed in private.freemail_domains by name or by provider (name.*).';
revoke execute on function private.is_freemail_domain(p_domain text) from public;

-- The rule counts a source's paid readers of one domain over a day: found by this index, not by reading every paid
-- reader of the source.
create index newsletter_subscriptions_source_domain_idx on public.newsletter_subscriptions
  using btree (audience_source_id, public.email_domain(email_canonical), confirmed_at) where counted;

-- === The rule ==============================================================================================

create or replace function private.paid_subscriber_refusal(s public.newsletter_subscriptions, p_confirming boolean)
 returns text
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  src public.audience_sources;
  c public.campaigns;
  reader_domain text := public.email_domain(s.email_canonical);
begin
  select * into src from public.audience_sources where id = s.audience_source_id;
  select * into c from public.campaigns where id = s.campaign_id;
  if not found or not public.is_source_public(src.status) then
    return 'source_inactive';
  end if;
  -- A suspended publisher's links stop earning and a suspended advertiser's newsletters stop paying.
  if public.account_is_suspended(src.publisher_id) or public.account_is_suspended(c.advertiser_id) then
    return 'account_suspended';
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
    -- One email domain (not webmail) brings at most 3 paid readers a day through one source: a company's colleagues
    -- count, a catch-all's scripted inboxes do not. A reader already paid through the source today takes no new place.
    if not private.is_freemail_domain(reader_domain) and (
        select count(distinct o.email_canonical) from public.newsletter_subscriptions o
        where o.audience_source_id = s.audience_source_id and o.counted
          and public.email_domain(o.email_canonical) = reader_domain
          and o.confirmed_at > now() - interval '24 hours'
          and o.email_canonical <> s.email_canonical) >= 3 then
      return 'domain_velocity';
    end if;
    if clock_timestamp() - s.armed_at < interval '2 seconds' then
      return 'too_fast_confirmation';
    end if;
  end if;
  return null;
end
$function$;

-- === The evidence ==========================================================================================

create function public.admin_source_domains(p_source_id uuid, p_days integer default 30)
 returns table(domain text, freemail boolean, confirmed integer, counted integer, domain_limited integer, last_seen timestamp with time zone)
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
begin
  perform private.require_admin();
  if p_days is null or p_days < 1 or p_days > 365 then
    raise exception 'Choose between 1 and 365 days' using errcode = '22023';
  end if;
  if not exists (select 1 from public.audience_sources where id = p_source_id) then
    raise exception 'Source not found' using errcode = 'P0002';
  end if;
  return query
  select d.domain, private.is_freemail_domain(d.domain), count(*)::integer,
    count(*) filter (where n.counted)::integer,
    count(*) filter (where n.not_counted_reason = 'domain_velocity')::integer,
    max(n.confirmed_at)
  from public.newsletter_subscriptions n
  cross join lateral (select public.email_domain(n.email_canonical) as domain) d
  where n.audience_source_id = p_source_id and n.confirmed_at > now() - make_interval(days => p_days)
  group by d.domain
  order by count(*) desc, max(n.confirmed_at) desc, d.domain
  limit 50;
end
$function$;
comment on function public.admin_source_domains(p_source_id uuid, p_days integer) is 'Admins: the email domains of a source''s confirmed readers over the last p_days days (30 by default), most readers first, at most 50: whether each is webmail, how many confirmed, how many were paid, how many the one-domain limit refused (domain_velocity), and when the last one confirmed. Domains only, never an address.';
revoke execute on function public.admin_source_domains(p_source_id uuid, p_days integer) from public;
grant execute on function public.admin_source_domains(p_source_id uuid, p_days integer) to authenticated, service_role;
