/**
 * The one client IP of a request (ARCHITECTURE "client IP"). A header is something any client can write,
 * so by default the gateway believes only the TCP connection. Behind a reverse proxy every connection
 * comes from the proxy; the operator then names the header that proxy sets (`CLIENT_IP_HEADER`, e.g.
 * `x-real-ip`), and only that header is read. The resolved address is what every API sees: auth limits
 * (`ApiRequest.ip`), and SQL and edge functions through `x-real-ip` and `x-forwarded-for`, which the
 * gateway overwrites with it.
 */
import { isIP } from 'node:net'

/** A header name as Node lower-cases it, or undefined for "trust no header" (unset or blank). */
export function trustedHeaderName(value: string | undefined): string | undefined {
  const name = value?.trim().toLowerCase()
  if (!name) return undefined
  if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) throw new Error(`CLIENT_IP_HEADER is not a header name: ${value}`)
  return name
}

/**
 * An address in canonical text form, or null when the text is not one: proxies write `1.2.3.4:5678`,
 * `[2001:db8::1]:443` or IPv4-mapped IPv6, and SQL casts what it gets to `inet`.
 */
export function normalizeIp(value: string | undefined | null): string | null {
  let text = value?.trim() ?? ''
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text)
  if (bracketed) text = bracketed[1]
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'))
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(text)
  if (mapped) text = mapped[1]
  const version = isIP(text)
  if (version === 4) return text
  if (version === 6) return text.toLowerCase()
  return null
}

/**
 * The trusted header's address when it is configured and present: the LAST entry of a list, because a
 * proxy appends the peer it saw to whatever the client sent (`X-Forwarded-For: <forged>, <real>`).
 * Otherwise (no trusted header, or it is missing or malformed) the socket's own address.
 */
export function resolveClientIp(
  headers: Record<string, string | string[] | undefined>,
  socketAddress: string | undefined,
  trustedHeader: string | undefined,
): string {
  if (trustedHeader) {
    const raw = headers[trustedHeader]
    const entries = (Array.isArray(raw) ? raw.join(',') : (raw ?? '')).split(',')
    const fromProxy = normalizeIp(entries[entries.length - 1])
    if (fromProxy) return fromProxy
  }
  // A socket that already closed has no address; the request is then answered to nobody anyway.
  return normalizeIp(socketAddress) ?? '0.0.0.0'
}
