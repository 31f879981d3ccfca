/**
 * CORS for functions called from the browser with supabase-js (`functions.invoke` sends authorization,
 * apikey, x-client-info and content-type). Every response carries these headers, errors included, or the
 * browser hides the error body from the app.
 */
export const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers':
    'authorization, x-client-info, apikey, content-type, x-supabase-api-version, x-retry-count',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Max-Age': '86400',
}

/** The answer to a preflight request, or undefined when this is not one. */
export function preflight(req: Request): Response | undefined {
  return req.method === 'OPTIONS' ? new Response('ok', { headers: corsHeaders }) : undefined
}
