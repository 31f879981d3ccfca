-- The advertiser's subscribers, to take home (PRODUCT "Subscriptions"): a paginated, searchable list of a
-- campaign's confirmed subscribers (email, confirmed at, source, status and whether it was charged) and the
-- keyset pages the export-subscribers edge function streams as CSV. Pending addresses never appear: only
-- rows with a confirmation, the same rule as the table's policy. Both read with the caller's rights checked
-- here (the advertiser of the campaign, or an admin), never the browser's word.

-- Newest confirmations first, by campaign: the list, its count and the export read this index only.
create index newsletter_subscriptions_confirmed_idx on public.newsletter_subscriptions (campaign_id, confirmed_at desc, id desc)
  where confirmed_at is not null;

create function private.check_subscriber_reader(p_campaign_id uuid)
returns void
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  if (select auth.uid()) is null and auth.role() <> 'service_role' then
    raise exception 'Sign in to see subscribers' using errcode = '42501';
  end if;
  if not public.is_admin() and auth.role() <> 'service_role'
     and not exists (select 1 from public.campaigns where id = p_campaign_id and advertiser_id = (select auth.uid())) then
    raise exception 'You can only see subscribers of your own campaigns' using errcode = '42501';
  end if;
end
$$;
comment on function private.check_subscriber_reader(uuid) is 'Internal: the campaign''s advertiser (or an admin) may read its subscribers.';
revoke execute on function private.check_subscriber_reader(uuid) from public, anon, authenticated, service_role;

-- '%' and '_' in what the user typed are letters, not wildcards.
create function private.email_search_pattern(p_search text)
returns text
language sql immutable
set search_path = ''
as $$
  select case when nullif(trim(coalesce(p_search, '')), '') is null then null
    else '%' || replace(replace(replace(lower(trim(p_search)), '\', '\\'), '%', '\%'), '_', '\_') || '%' end
$$;
comment on function private.email_search_pattern(text) is 'Internal: an ILIKE pattern that finds the typed text anywhere in an address.';
revoke execute on function private.email_search_pattern(text) from public, anon, authenticated, service_role;

create function public.campaign_subscribers(
  p_campaign_id uuid, p_search text default null, p_limit integer default 25, p_offset integer default 0
)
returns table (
  id uuid, email text, confirmed_at timestamptz, source_id uuid, source_name text, status text, counted boolean,
  not_counted_reason text, reason_label text, price numeric
)
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  pattern text := private.email_search_pattern(p_search);
begin
  perform private.check_subscriber_reader(p_campaign_id);
  if p_limit is null or p_limit < 1 or p_limit > 100 then
    raise exception 'Ask for 1 to 100 subscribers at a time' using errcode = '22023';
  end if;
  if p_offset is null or p_offset < 0 then
    raise exception 'The page must be 0 or more' using errcode = '22023';
  end if;
  return query
  select s.id, s.email::text, s.confirmed_at, s.audience_source_id, a.name, s.status, s.counted, s.not_counted_reason,
    r.label, case when s.counted then s.price end
  from public.newsletter_subscriptions s
  left join public.audience_sources a on a.id = s.audience_source_id
  left join public.not_counted_reasons r on r.code = s.not_counted_reason
  where s.campaign_id = p_campaign_id and s.confirmed_at is not null
    and (pattern is null or s.email::text ilike pattern)
  order by s.confirmed_at desc, s.id desc
  limit p_limit offset p_offset;
end
$$;
comment on function public.campaign_subscribers(uuid, text, integer, integer) is
  'One page of a campaign''s confirmed subscribers, newest first, optionally those whose address contains p_search: email, confirmed at, source, status, whether it was charged (else why not). The campaign''s advertiser or an admin.';
revoke execute on function public.campaign_subscribers(uuid, text, integer, integer) from public, anon, authenticated;
grant execute on function public.campaign_subscribers(uuid, text, integer, integer) to authenticated, service_role;

create function public.campaign_subscriber_count(p_campaign_id uuid, p_search text default null)
returns bigint
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  pattern text := private.email_search_pattern(p_search);
begin
  perform private.check_subscriber_reader(p_campaign_id);
  return (select count(*) from public.newsletter_subscriptions s
    where s.campaign_id = p_campaign_id and s.confirmed_at is not null and (pattern is null or s.email::text ilike pattern));
end
$$;
comment on function public.campaign_subscriber_count(uuid, text) is 'How many confirmed subscribers campaign_subscribers pages through (for the pager).';
revoke execute on function public.campaign_subscriber_count(uuid, text) from public, anon, authenticated;
grant execute on function public.campaign_subscriber_count(uuid, text) to authenticated, service_role;

-- Keyset pages for the CSV export: each page starts after the last (confirmed_at, id) of the previous one,
-- so page 100 costs what page 1 does and a subscriber confirming meanwhile neither repeats nor shifts rows.
create function public.campaign_subscribers_export(
  p_campaign_id uuid, p_after_confirmed_at timestamptz default null, p_after_id uuid default null, p_limit integer default 1000
)
returns table (id uuid, email text, confirmed_at timestamptz, source_name text, status text, charged text)
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  perform private.check_subscriber_reader(p_campaign_id);
  if p_limit is null or p_limit < 1 or p_limit > 5000 then
    raise exception 'Ask for 1 to 5000 subscribers at a time' using errcode = '22023';
  end if;
  return query
  select s.id, s.email::text, s.confirmed_at, a.name, s.status,
    case when s.counted then 'yes' when s.audience_source_id is null then 'no (no source)' else 'no (' || coalesce(r.label, s.not_counted_reason, 'not counted') || ')' end
  from public.newsletter_subscriptions s
  left join public.audience_sources a on a.id = s.audience_source_id
  left join public.not_counted_reasons r on r.code = s.not_counted_reason
  where s.campaign_id = p_campaign_id and s.confirmed_at is not null
    and (p_after_confirmed_at is null or (s.confirmed_at, s.id) < (p_after_confirmed_at, p_after_id))
  order by s.confirmed_at desc, s.id desc
  limit p_limit;
end
$$;
comment on function public.campaign_subscribers_export(uuid, timestamptz, uuid, integer) is
  'export-subscribers: the next page of a campaign''s confirmed subscribers after (confirmed_at, id), newest first, for the CSV. Never a pending address.';
revoke execute on function public.campaign_subscribers_export(uuid, timestamptz, uuid, integer) from public, anon, authenticated;
grant execute on function public.campaign_subscribers_export(uuid, timestamptz, uuid, integer) to authenticated, service_role;
