/**
 * JSON in and out for edge functions: responses always carry CORS headers; request mistakes become an
 * `HttpError` whose message is safe to show the user, so a handler can `throw` and the wrapper answers.
 */
import { corsHeaders } from './cors.ts'

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, 'Content-Type': 'application/json', ...headers },
  })
}

/** The request's JSON object body; anything else is a 400 with a readable message. */
export async function readJsonObject(req: Request): Promise<Record<string, unknown>> {
  let body: unknown
  try {
    body = JSON.parse(await req.text())
  } catch {
    throw new HttpError(400, 'The request body must be valid JSON')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'The request body must be a JSON object')
  }
  return body as Record<string, unknown>
}

/**
 * The caller's IP as the gateway in front of the functions resolved it, never a header the caller wrote.
 * The embedded backend writes its one resolved address into `x-real-ip` (and `x-forwarded-for`) over
 * anything the client sent. On hosted Supabase, set the `CLIENT_IP_HEADER` secret to the header the
 * platform sets (README, "The client IP"); the last entry of a list is the one the nearest proxy added.
 */
export function clientIp(req: Request, header: string = clientIpHeader()): string {
  const entries = (req.headers.get(header) ?? '').split(',')
  return entries[entries.length - 1].trim() || 'unknown'
}

function clientIpHeader(): string {
  // Through globalThis: `Deno` is absent (and untyped) when the pure helpers run under Node in the tests.
  const deno = (globalThis as { Deno?: { env: { get(name: string): string | undefined } } }).Deno
  const configured = deno?.env.get('CLIENT_IP_HEADER')
  return configured?.trim().toLowerCase() || 'x-real-ip'
}

export function requirePost(req: Request): void {
  if (req.method !== 'POST') throw new HttpError(405, 'Method not allowed', { Allow: 'POST, OPTIONS' })
}

/** Logs what the user must not see and answers with what they may. */
export function errorResponse(error: unknown, body: (message: string) => Record<string, unknown>): Response {
  if (error instanceof HttpError) {
    // A 500 the function chose to explain (a missing secret) belongs in the logs as well.
    if (error.status === 500) console.error(error.message)
    return json(body(error.message), error.status, error.headers)
  }
  console.error(error)
  return json(body('Something went wrong. Please try again.'), 500)
}
