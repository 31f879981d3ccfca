/**
 * The intended differences between the 38 migrations before the baseline and the baseline itself
 * (docs/decisions.md, "The schema's current state: a baseline per domain, a snapshot by domain tag"). The baseline was rendered from the old schema with
 * these changes applied (scripts/squash-migrations.ts), and supabase/tests/squash.test.ts applies them to the
 * old schema's catalog before comparing it with the baseline's: anything else that differs fails that test.
 */
import type { SchemaCatalog } from '../../../embedded-backend/db/schema-catalog'

/**
 * Helpers only SQL calls (no client, edge function or test through the API; no API role may execute them),
 * moved from `public` to `private`, where the API roles cannot reach: the six whose comments said "Internal",
 * and the three other public functions no API role could execute that are not trigger functions.
 */
export const MOVED_TO_PRIVATE = [
  'bump_campaign_source_stats',
  'campaign_funding_status',
  'finish_ledger',
  'lock_wallet',
  'log_moderation_event',
  'post_ledger',
  'refresh_campaign_funding',
  'require_admin',
  'wallet_available',
] as const

/**
 * private.kick_notifications() and private.kick_webhooks() were the same function with another edge function's
 * name and timeout; both became private.kick_edge_function(name, timeout), and their callers call that.
 */
export const KICKS: Record<string, string> = {
  'private.kick_notifications()': "private.kick_edge_function('send-notifications', 60000)",
  'private.kick_webhooks()': "private.kick_edge_function('deliver-webhooks', 120000)",
}
export const REMOVED_FUNCTIONS = ['private.kick_notifications()', 'private.kick_webhooks()']
export const ADDED_FUNCTIONS = ['private.kick_edge_function(p_function text, p_timeout_milliseconds integer)']

/** The one function both kicks became (run on the old schema before rendering the baseline). */
export const KICK_EDGE_FUNCTION_SQL = `
create function private.kick_edge_function(p_function text, p_timeout_milliseconds integer)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  base text := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url');
  key text := (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key');
  target text;
begin
  if base is null or key is null then
    return false;
  end if;
  target := rtrim(base, '/') || '/functions/v1/' || p_function;
  -- One call waiting to go out is enough: the function works through everything due when it runs.
  if exists (select 1 from net.http_request_queue q where q.url = target) then
    return true;
  end if;
  perform net.http_post(
    url => target,
    body => '{}'::jsonb,
    headers => jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || key, 'apikey', key),
    timeout_milliseconds => p_timeout_milliseconds
  );
  return true;
end
$$;
comment on function private.kick_edge_function(text, integer) is
  'Internal: asks an edge function (send-notifications, deliver-webhooks) through pg_net, after commit, to work through what is due now. The project URL and service-role key come from Vault, as Supabase''s guide to scheduling functions does; without them it does nothing and returns false (the scheduled jobs raise then, so the misconfiguration shows).';
revoke execute on function private.kick_edge_function(text, integer) from public, anon, authenticated, service_role;
`

/** The old schema's catalog as the baseline means it to be. */
export function applySquashChanges(catalog: SchemaCatalog): SchemaCatalog {
  let text = JSON.stringify(catalog)
  for (const name of MOVED_TO_PRIVATE) text = text.replace(new RegExp(`\\bpublic\\.${name}\\b`, 'g'), `private.${name}`)
  for (const [from, to] of Object.entries(KICKS)) text = text.split(from).join(to)
  const changed = JSON.parse(text) as SchemaCatalog
  const moved = new Set<string>(MOVED_TO_PRIVATE)
  changed.functions = changed.functions
    .filter((f) => !REMOVED_FUNCTIONS.includes(`${f.schema}.${f.signature}`))
    .map((f) => (f.schema === 'public' && moved.has(f.name) ? { ...f, schema: 'private' } : f))
    .sort((a, b) => (`${a.schema}.${a.signature}` < `${b.schema}.${b.signature}` ? -1 : 1))
  return changed
}
