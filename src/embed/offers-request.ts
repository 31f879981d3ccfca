/**
 * The frame's one request before it can show anything: `embed_offers` by GET with the key in the URL, a CORS simple
 * request (no custom header, no body), so no preflight round trip comes before it. Asked by the first script of the
 * frame's document (./ask-offers.ts, a few hundred bytes) before the styles and the frame's own script are parsed;
 * the frame's script (./frame.ts) takes the same request.
 */
import { env } from '@/config/env'

declare global {
  interface Window {
    /** The offers' response, asked once per document. */
    __growletterOffers?: Promise<Response>
  }
}

/** The source's unified code, from `/embed/{code}`. */
export const embedCode = () => decodeURIComponent(location.pathname.replace(/^\/embed\/?/, '').split('/')[0] ?? '')

export function askOffers(): Promise<Response> {
  const query = new URLSearchParams({ p_code: embedCode(), apikey: env.supabaseKey })
  window.__growletterOffers ??= fetch(`${env.VITE_SUPABASE_URL.replace(/\/+$/, '')}/rest/v1/rpc/embed_offers?${query}`)
  return window.__growletterOffers
}
