-- Issue 36: the edge functions' rate limits move from each isolate's memory into the database. On hosted Supabase a
-- function runs in many short-lived isolates, each with its own memory, so a counter kept in memory (subscribe,
-- verify-subscription, decline-subscription, send-backup-confirmation, esp-connection) limited one isolate, not the
-- caller. The counters now live in private.rate_limits, counted by private.hit_rate_limit (fixed windows, one row per
-- key, an upsert that every isolate and every function process sees), like the limits the database already kept
-- (confirmation emails per inbox, contact messages, webhook resends).
--
-- One function for every edge-function limit, with the limits written here: the functions name a rule and whom it
-- counts (an IP address, a canonical inbox, a user id), never a number, so a caller cannot widen its own limit.

create function public.take_function_allowance(p_rule text, p_subject text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  max_hits integer;
  per interval;
begin
  select r.max_hits, r.per into max_hits, per
  from (values
    -- Per IP: generous enough for a household or an office behind one address.
    ('subscribe-ip', 30, interval '15 minutes'),
    -- Tokens are 256 random bits, so these two are about load, not guessing.
    ('verify-subscription-ip', 60, interval '5 minutes'),
    ('decline-subscription-ip', 60, interval '5 minutes'),
    ('backup-confirmation-ip', 20, interval '1 hour'),
    -- Counted for every address alike, so a refusal says nothing about whether an account exists.
    ('backup-confirmation-inbox', 3, interval '1 hour'),
    -- The ESP look-ups of one signed-in advertiser (each costs a request to the provider with their key).
    ('esp-lookup-user', 30, interval '1 minute')
  ) as r(rule, max_hits, per)
  where r.rule = p_rule;
  if not found then
    raise exception 'Unknown rate limit rule %', p_rule using errcode = '22023';
  end if;
  if coalesce(p_subject, '') = '' then
    raise exception 'A rate limit needs whom it counts' using errcode = '22023';
  end if;
  return private.hit_rate_limit('fn:' || p_rule || ':' || p_subject, max_hits, per);
end
$$;
comment on function public.take_function_allowance(p_rule text, p_subject text) is 'Edge functions, service role only: counts one attempt of p_subject (an IP, a canonical inbox, a user id) under a named limit kept in the database (so every isolate sees it); 0 when allowed, else the seconds to wait.';
revoke execute on function public.take_function_allowance(p_rule text, p_subject text) from public, anon, authenticated;
grant execute on function public.take_function_allowance(p_rule text, p_subject text) to service_role;
