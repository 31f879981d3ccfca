-- The magic-link fast path (issue 16) records the click before the browser fingerprint is ready: the
-- fingerprint library needs ~150–250 ms of the visitor's CPU, more than the whole redirect may take. The
-- click goes out at once with `fingerprint: null` in its device info, the visitor lands on /newsletters,
-- and the page sends the fingerprint with `attach_click_fingerprint` when it is computed.
--
-- Nothing decides money on the fingerprint (whether a click counts is decided from the server-side visitor
-- hash when the click is recorded), and a visitor could always send any fingerprint with the click itself;
-- still, only the visitor who made the click may fill it in, once, shortly after:
-- * the click id is an unguessable uuid that only the click's answer carried;
-- * the request must come from the same address and browser string (the click's visitor hash);
-- * only while the fingerprint is still missing, and within 10 minutes of the click.

create function public.attach_click_fingerprint(p_click_id uuid, p_fingerprint text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  headers jsonb := coalesce(nullif(current_setting('request.headers', true), '')::jsonb, '{}'::jsonb);
  agent text := left(nullif(headers ->> 'user-agent', ''), 1000);
  client_ip text := private.client_ip();
  v_fingerprint text := left(trim(coalesce(p_fingerprint, '')), 200);
begin
  if p_click_id is null then
    raise exception using errcode = '22023', message = 'Which click is this fingerprint for? The click id is missing.';
  end if;
  -- SPEC §8: a fingerprint that could not be computed is recorded as 'unknown'.
  if v_fingerprint = '' then
    v_fingerprint := 'unknown';
  end if;
  update public.link_clicks c
     set fingerprint = v_fingerprint,
         device_info = jsonb_set(coalesce(c.device_info, '{}'::jsonb), '{fingerprint}', to_jsonb(v_fingerprint))
   where c.id = p_click_id
     and c.fingerprint is null
     and c.created_at > now() - interval '10 minutes'
     -- The click's hash was made with the day it was recorded; ten minutes may cross midnight.
     and c.visitor_hash in (private.visitor_hash(client_ip, agent, current_date),
                            private.visitor_hash(client_ip, agent, current_date - 1));
  return found;
end
$$;
comment on function public.attach_click_fingerprint(uuid, text) is
  'Fills in the fingerprint of a magic-link click recorded before it was computed: same visitor, once, within 10 minutes. True when it was recorded.';
revoke execute on function public.attach_click_fingerprint(uuid, text) from public;
grant execute on function public.attach_click_fingerprint(uuid, text) to anon, authenticated, service_role;
