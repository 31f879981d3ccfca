/**
 * The Standard Webhooks headers of one delivery. The signature covers `${id}.${timestamp}.${body}`, so the
 * `webhook-timestamp` header must be the very instant that was signed: read the clock once. (Reading it twice, once
 * to sign and once for the header, sent a signature no receiver could verify whenever the two reads fell in
 * different seconds.) `sign` is the `standardwebhooks` package's `Webhook#sign`, passed in so this module imports
 * nothing Deno-only and Node's tests run it as is.
 */
export type Sign = (messageId: string, timestamp: Date, payload: string) => string

export function signedWebhookHeaders(sign: Sign, messageId: string, body: string, sentAt: Date = new Date()) {
  return {
    'content-type': 'application/json',
    'user-agent': 'Growletter-Webhooks/1.0',
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': sign(messageId, sentAt, body),
  }
}
