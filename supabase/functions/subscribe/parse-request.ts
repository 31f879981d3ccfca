/**
 * The subscribe request body, checked field by field with messages a visitor can act on. The database
 * checks again (it is the last word); this layer exists to refuse bad input before any work or email.
 */
import { isDisposableEmail, isValidEmail, normalizeEmail } from '../_shared/email-address.ts'
import { HttpError } from '../_shared/http.ts'

export const MAX_NEWSLETTERS = 10
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export type SubscribeRequest = {
  email: string
  campaignIds: string[]
  audienceSourceId: string | null
  clickId: string | null
  /** The link's signed click token (`ct=…`); the database checks it (signature, expiry, source). */
  clickToken: string | null
}

export function parseSubscribeRequest(body: Record<string, unknown>): SubscribeRequest {
  if (typeof body.email !== 'string' || !isValidEmail(normalizeEmail(body.email))) {
    throw new HttpError(400, 'Please enter a valid email address')
  }
  const email = normalizeEmail(body.email)
  if (isDisposableEmail(email)) {
    throw new HttpError(400, 'Disposable email addresses are not accepted. Please use your regular email address.')
  }
  const ids = body.campaignIds
  if (!Array.isArray(ids) || ids.length === 0) throw new HttpError(400, 'Choose at least one newsletter')
  if (ids.length > MAX_NEWSLETTERS) {
    throw new HttpError(400, `You can subscribe to at most ${MAX_NEWSLETTERS} newsletters at once`)
  }
  if (!ids.every((id) => typeof id === 'string' && UUID.test(id))) {
    throw new HttpError(400, 'One of the chosen newsletters does not exist')
  }
  return {
    email,
    campaignIds: [...new Set(ids.map((id: string) => id.toLowerCase()))],
    audienceSourceId: optionalUuid(body.audienceSourceId, 'The referral source is not valid'),
    clickId: optionalUuid(body.clickId, 'The referral click is not valid'),
    clickToken: optionalClickToken(body.clickToken),
  }
}

function optionalUuid(value: unknown, message: string): string | null {
  if (value === undefined || value === null || value === '') return null
  if (typeof value !== 'string' || !UUID.test(value)) throw new HttpError(400, message)
  return value.toLowerCase()
}

/**
 * `{click id}.{expiry}.{signature}`. Only its shape is looked at here: a damaged one is dropped (the reader still
 * subscribes, as with no token); the database checks the rest and ignores a token that is not its own.
 */
const CLICK_TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[0-9]{1,12}\.[0-9a-f]{32}$/i

function optionalClickToken(value: unknown): string | null {
  return typeof value === 'string' && CLICK_TOKEN.test(value) ? value.toLowerCase() : null
}
