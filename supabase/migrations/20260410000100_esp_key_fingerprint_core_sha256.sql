-- The key's fingerprint with PostgreSQL's own sha256() instead of pgcrypto's digest(): the same bytes (digest() of a
-- text hashes its UTF-8 form), without OpenSSL, which in PGlite now and then failed to initialise its digest
-- ("Cannot use "sha256": Cipher cannot be initialized") and stopped a start-up seed or an e2e stack.
create or replace function public.save_esp_connection(p_campaign_id uuid, p_provider text, p_api_key text, p_target_id text, p_target_name text default null::text, p_backfill boolean default false)
 returns integer
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  me uuid := (select auth.uid());
  owner uuid;
  problem text := private.esp_key_problem(p_provider, p_api_key);
  key text := trim(p_api_key);
  target text := trim(coalesce(p_target_id, ''));
  label text := left(coalesce(nullif(trim(p_target_name), ''), trim(coalesce(p_target_id, ''))), 200);
  existing public.esp_connections;
  connection uuid;
  queued integer := 0;
begin
  perform private.require_live_session();
  select c.advertiser_id into owner from public.campaigns c where c.id = p_campaign_id;
  if me is null or owner is distinct from me then
    raise exception 'You can only connect your own newsletters' using errcode = '42501';
  end if;
  if problem is not null then
    raise exception '%', problem using errcode = '22023';
  end if;
  if target = '' then
    raise exception 'Choose the list your subscribers should go to' using errcode = '22023';
  end if;
  if char_length(target) > 200 then
    raise exception 'That list id is too long; load your lists and choose one again' using errcode = '22023';
  end if;
  if private.hit_rate_limit('esp-connection:' || me, 30, interval '1 hour') > 0 then
    raise exception 'You changed email tool connections 30 times in the last hour; wait a while' using errcode = '22023';
  end if;
  select * into existing from public.esp_connections e where e.campaign_id = p_campaign_id for update;
  if found then
    -- The old key is replaced in place: one secret per connection, never an orphan left in Vault.
    perform vault.update_secret(existing.secret_id, key);
    if existing.provider <> p_provider or existing.target_id <> target then
      -- Another list: what went to the old one says nothing about the new one.
      delete from public.esp_deliveries d where d.connection_id = existing.id;
    end if;
    update public.esp_connections set provider = p_provider, target_id = target, target_name = label,
      key_fingerprint = encode(sha256(convert_to(key, 'UTF8')), 'hex')
    where id = existing.id;
    connection := existing.id;
  else
    insert into public.esp_connections (campaign_id, advertiser_id, provider, target_id, target_name, secret_id, key_fingerprint)
    values (p_campaign_id, me, p_provider, target, label,
      vault.create_secret(key, null, 'ESP API key of campaign ' || p_campaign_id),
      encode(sha256(convert_to(key, 'UTF8')), 'hex'))
    returning id into connection;
  end if;
  if coalesce(p_backfill, false) then
    insert into public.esp_deliveries (connection_id, subscription_id, campaign_id, advertiser_id)
    select connection, s.id, s.campaign_id, me from public.newsletter_subscriptions s
    where s.campaign_id = p_campaign_id and s.confirmed_at is not null
    on conflict (connection_id, subscription_id) do nothing;
    get diagnostics queued = row_count;
    if queued > 0 then
      perform private.kick_edge_function('deliver-esp', 120000);
    end if;
  end if;
  return queued;
end
$function$;
