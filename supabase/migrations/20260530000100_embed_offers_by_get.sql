-- The embed's first render in one request without a CORS preflight, and a snippet that reserves its room (issue 41).
--
-- - private.embed_offer_rows: the one definition of the newsletters an embed shows (up to 6 open for subscribers,
--   best paid first), read by the three functions below.
-- - public.embed_offers(p_code): the frame's answer (status, source, offers), stable so the frame reads it by GET with
--   the key in the URL: a CORS "simple" request, no preflight round trip before the offers show.
-- - public.embed_load(p_code): unchanged rules; it still counts the load and answers the same, now from the two
--   above. The frame sends it after the offers are on screen, so counting is off the path to the first render.
-- - public.publisher_embed_figures(): gains `offers`, how many newsletters the embed shows now, which the Embed page
--   turns into the height its snippet reserves (src/embed/room.ts). A new column: dropped and created again.

create function private.embed_offer_rows()
 returns table(id uuid, name text, description text, place bigint)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select c.id, c.name, left(c.description, 200),
    row_number() over (order by c.price_per_subscriber desc, c.name, c.id)
  from public.campaigns c
  where c.status = 'active' and c.funding_status = 'funded' and not public.account_is_suspended(c.advertiser_id)
  order by c.price_per_subscriber desc, c.name, c.id
  limit 6
$function$;
comment on function private.embed_offer_rows() is 'The newsletters an embed shows: up to 6 open for subscribers (active, funded, advertiser not suspended), best paid first. Read by embed_offers, embed_load and publisher_embed_figures.';
revoke execute on function private.embed_offer_rows() from public;
-- Granted to no API role, on purpose: its callers are security definer functions owned by postgres.
revoke execute on function private.embed_offer_rows() from anon, authenticated, service_role;

create function public.embed_offers(p_code text)
 returns jsonb
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  src record;
begin
  select s.id, s.name, s.unified_code, s.status, s.publisher_id into src
    from public.audience_sources s where s.unified_code = lower(trim(coalesce(p_code, '')));
  if not found then
    return jsonb_build_object('status', 'not_found', 'source', null, 'offers', '[]'::jsonb);
  end if;
  if not public.is_source_public(src.status) or public.account_is_suspended(src.publisher_id) then
    return jsonb_build_object('status', 'inactive', 'source', null, 'offers', '[]'::jsonb);
  end if;
  return jsonb_build_object('status', 'valid',
    'source', jsonb_build_object('id', src.id, 'name', src.name, 'unified_code', src.unified_code),
    'offers', coalesce((
      select jsonb_agg(jsonb_build_object('id', o.id, 'name', o.name, 'description', o.description) order by o.place)
      from private.embed_offer_rows() o), '[]'::jsonb));
end
$function$;
comment on function public.embed_offers(p_code text) is 'The embed (/embed/{code}) reads it by GET to render: the source and up to 6 newsletters open for subscribers, best paid first; counts nothing (embed_load does). status: valid | inactive | not_found.';
revoke execute on function public.embed_offers(p_code text) from public;
grant execute on function public.embed_offers(p_code text) to anon, authenticated, service_role;

create or replace function public.embed_load(p_code text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  headers jsonb := coalesce(nullif(current_setting('request.headers', true), '')::jsonb, '{}'::jsonb);
  client_ip text := private.client_ip();
  answer jsonb := public.embed_offers(p_code);
  src record;
begin
  if answer ->> 'status' <> 'valid' then
    return answer;
  end if;
  select s.id, s.publisher_id into src from public.audience_sources s where s.id = (answer #>> '{source,id}')::uuid;
  -- Bots are not readers, the publisher's own look at it (the dashboard's preview, signed in) is not a load, and one
  -- address counts at most 30 loads of a source an hour (an office behind one address; a script reloading it not).
  if not public.is_bot_user_agent(headers ->> 'user-agent') and (select auth.uid()) is distinct from src.publisher_id
     and (client_ip is null or private.hit_rate_limit('embed-load:' || src.id || ':' || client_ip, 30, interval '1 hour') = 0) then
    insert into public.embed_loads as e (audience_source_id, day, loads) values (src.id, current_date, 1)
      on conflict (audience_source_id, day) do update set loads = e.loads + 1;
  end if;
  return answer;
end
$function$;
comment on function public.embed_load(p_code text) is 'The embed (/embed/{code}) sends it once its offers are on screen: counts one load of the source''s embed (not for bots, nor for its own publisher signed in: the dashboard''s preview; at most 30 an hour from one address) and answers as embed_offers does. status: valid | inactive | not_found.';
revoke execute on function public.embed_load(p_code text) from public;
grant execute on function public.embed_load(p_code text) to anon, authenticated, service_role;

drop function public.publisher_embed_figures();
create function public.publisher_embed_figures()
 returns table(source_id uuid, source_name text, unified_code text, status text, loads bigint, subscribers bigint, paid_subscribers bigint, token_subscribers bigint, offers bigint)
 language sql
 stable security definer
 set search_path to ''
as $function$
  select s.id, s.name, s.unified_code, s.status,
    coalesce((select sum(e.loads) from public.embed_loads e where e.audience_source_id = s.id), 0)::bigint,
    (select count(*) from public.newsletter_subscriptions n
     where n.audience_source_id = s.id and n.channel = 'embed' and n.confirmed_at is not null),
    (select count(*) from public.newsletter_subscriptions n
     where n.audience_source_id = s.id and n.channel = 'embed' and n.counted),
    (select count(*) from public.newsletter_subscriptions n
     where n.audience_source_id = s.id and n.click_token_used and n.counted),
    (select count(*) from private.embed_offer_rows())
  from public.audience_sources s
  where s.publisher_id = (select auth.uid())
  order by s.created_at, s.id
$function$;
comment on function public.publisher_embed_figures() is 'The Embed page: each of the caller''s sources with its embed''s loads, its confirmed and paid subscribers through the embed, (every channel) the paid subscribers a click token carried to another browser or address, and how many newsletters its embed shows now (the height its snippet reserves).';
revoke execute on function public.publisher_embed_figures() from public;
grant execute on function public.publisher_embed_figures() to authenticated, service_role;
