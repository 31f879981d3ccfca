-- Click tokens signed with core sha256(), not pgcrypto's hmac().
--
-- pgcrypto's digest functions sometimes fail to initialise in PGlite ("Cannot use "sha256": Cipher cannot be
-- initialized"), which is why hashes elsewhere already use core sha256() (20260410000100_esp_key_fingerprint_core_
-- sha256.sql). A click whose token could not be signed failed as a whole. private.hmac_sha256 is HMAC-SHA256 as
-- RFC 2104 defines it, built on core sha256(): the same bytes as extensions.hmac(data, key, 'sha256') (a db test
-- checks RFC 4231's vectors), so every token already issued stays valid.

create function private.hmac_sha256(p_key bytea, p_message bytea)
 returns bytea
 language plpgsql
 immutable strict
 set search_path to ''
as $function$
declare
  k bytea := case when length(p_key) > 64 then sha256(p_key) else p_key end;
  inner_key bytea;
  outer_key bytea;
begin
  k := k || decode(repeat('00', 64 - length(k)), 'hex');
  inner_key := k;
  outer_key := k;
  for i in 0..63 loop
    inner_key := set_byte(inner_key, i, get_byte(k, i) # 54); -- 0x36
    outer_key := set_byte(outer_key, i, get_byte(k, i) # 92); -- 0x5c
  end loop;
  return sha256(outer_key || sha256(inner_key || p_message));
end
$function$;
comment on function private.hmac_sha256(p_key bytea, p_message bytea) is 'Internal: HMAC-SHA256 (RFC 2104) on core sha256(), the same bytes as pgcrypto''s hmac(data, key, ''sha256''), which PGlite cannot always initialise.';
revoke execute on function private.hmac_sha256(p_key bytea, p_message bytea) from public;
-- Granted to no API role, on purpose: private.click_token, a security definer function owned by postgres, is its one
-- caller; anon, authenticated and service_role reach the token only through track_audience_source_click and
-- create_pending_subscriptions, whose grants (20260523000100_click_token_and_embed.sql) are unchanged.
revoke execute on function private.hmac_sha256(p_key bytea, p_message bytea) from anon, authenticated, service_role;

create or replace function private.click_token(p_click_id uuid, p_source_id uuid, p_clicked_at timestamp with time zone)
 returns text
 language sql
 stable security definer
 set search_path to ''
as $function$
  select p_click_id::text || '.' || e::text || '.' || left(encode(private.hmac_sha256(
      (select click_token_secret from private.settings),
      convert_to('ct1|' || p_click_id::text || '|' || p_source_id::text || '|' || e::text, 'UTF8')), 'hex'), 32)
  -- Valid for 72 hours after the click (private.click_token_click derives the click's time from the expiry).
  from (select floor(extract(epoch from p_clicked_at))::bigint + 259200 as e) expiry
$function$;
