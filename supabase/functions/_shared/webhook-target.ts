/**
 * May deliver-webhooks send to this URL now? https only, to a name whose every resolved address is public
 * (an attacker's name that resolves to 10.0.0.5 or 169.254.169.254 is refused), or to a public IP literal.
 * Checked for the endpoint and again for every redirect hop. The embedded backend (local development only)
 * sets WEBHOOKS_ALLOW_LOOPBACK_HTTP so that http://127.0.0.1 is accepted too. The resolver is passed in so
 * that the tests run this under Node. A name can still re-resolve between this check and the connection
 * (DNS rebinding); fetch offers no way to pin the address, which is why the check is repeated per hop and
 * the receiving side's answer never reaches the advertiser beyond its status code.
 */
import { isPublicIp, parseIp } from './public-address.ts'

export type Resolve = (host: string) => Promise<string[]>

export class RefusedTarget extends Error {}

export async function checkWebhookTarget(url: URL, resolve: Resolve, allowLoopbackHttp: boolean): Promise<void> {
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase()
  if (url.username || url.password) throw new RefusedTarget('The URL must not carry a user name or password')
  if (url.protocol === 'http:' && allowLoopbackHttp && host === '127.0.0.1') return
  if (url.protocol !== 'https:')
    throw new RefusedTarget(`Refused ${url.protocol}// — webhooks are sent over https only`)
  if (host === 'localhost' || host.endsWith('.localhost'))
    throw new RefusedTarget(`Refused ${host}: not a public address`)
  if (parseIp(host)) {
    if (!isPublicIp(host)) throw new RefusedTarget(`Refused ${host}: a private, loopback or link-local address`)
    return
  }
  let addresses: string[]
  try {
    addresses = await resolve(host)
  } catch (error) {
    throw new RefusedTarget(`Could not resolve ${host}: ${(error as Error).message}`)
  }
  if (addresses.length === 0) throw new RefusedTarget(`Could not resolve ${host}`)
  const blocked = addresses.find((a) => !isPublicIp(a))
  if (blocked)
    throw new RefusedTarget(`Refused ${host}: it resolves to ${blocked}, a private, loopback or link-local address`)
}
