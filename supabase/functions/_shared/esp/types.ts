/**
 * The common shape of the four email-service-provider clients (issue 25): list the advertiser's lists, check a
 * key, deliver one confirmed subscriber, and read engagement back where the provider's API tells it.
 *
 * Every client is pure `fetch` (Deno and Node alike, no SDK): the base URL comes from the caller, which reads
 * `ESP_*_API_URL` (see `espBaseUrl` in ./index.ts), so the embedded backend points them at its local sandbox.
 */

export type EspProvider = 'beehiiv' | 'kit' | 'mailchimp' | 'mailerlite'

export const ESP_PROVIDERS: readonly EspProvider[] = ['beehiiv', 'kit', 'mailchimp', 'mailerlite']

/** One list an advertiser can deliver into: a beehiiv publication, Kit form, Mailchimp audience, MailerLite group. */
export type EspTarget = { id: string; name: string }

/** A subscriber confirmed on Growletter, with the consent evidence the provider can hold. */
export type EspSubscriber = {
  email: string
  /** When the reader confirmed their subscription on Growletter (double opt-in done there). */
  confirmedAt: Date | string
  /** The address the confirmation came from; null when unknown. */
  ip: string | null
  /** The recommending newsletter (the source). */
  sourceName: string
  /** The advertiser's campaign. */
  campaignName: string
}

/**
 * A request the provider did not accept. `retryable`: rate limits (429), the provider's outages (5xx) and
 * network failures; `retryAfterMs` from its Retry-After header when it sent one. Any other 4xx is final and
 * `message` is the provider's own words, shown to the advertiser. `status` is 0 when no answer came.
 */
export type EspFailure = { ok: false; retryable: boolean; retryAfterMs?: number; status: number; message: string }

export type EspResult<T> = ({ ok: true } & T) | EspFailure

/** Opens and clicks as the provider reports them; fields the provider does not give are left out. */
export type EspEngagement = {
  opens?: number
  clicks?: number
  /** 0..1 */
  openRate?: number
  /** 0..1 */
  clickRate?: number
  /** Opened or clicked at least once (as far as the provider tells). */
  engaged: boolean
  /**
   * Opens and clicks the tool attributes to machines (privacy-proxy prefetches, link scanners); left out where the
   * tool does not tell them apart, and then only clicks count for engagement-verified pay.
   */
  machineOpens?: number
  machineClicks?: number
}

/** One member of a list read (engagement read-back by pages, issue 39): matched to readers by email or remoteId. */
export type EspListMember = { email: string; remoteId?: string; engagement: EspEngagement }

/**
 * One page of a list read: its members with the same engagement the per-subscriber read gives, the cursor of the next
 * page (null when the list is done) and the tool's count of the members listed, where it reports one.
 */
export type EspListPage = { members: EspListMember[]; next: string | null; total?: number }

/** Which page to read: members since `since` (where the tool filters by sign-up), `pageSize` a page, from `cursor`. */
export type EspListQuery = { since: Date; cursor: string | null; pageSize: number }

export type EspClientOptions = {
  /**
   * The API base including its version path, e.g. `https://api.kit.com/v4` (a trailing slash is fine). Unset:
   * the provider's real base (Mailchimp's from the key's data-centre suffix).
   */
  baseUrl?: string
  /** Defaults to the global fetch (tests may pass their own). */
  fetch?: typeof fetch
  /** Where Growletter lives, for the referrer URLs providers keep (Kit `referrer`, beehiiv `referring_site`). */
  siteUrl?: string
}

export interface EspClient {
  readonly provider: EspProvider
  listTargets(key: string): Promise<EspResult<{ targets: EspTarget[] }>>
  /** Checks the key and that the chosen list exists under it. */
  testConnection(key: string, targetId: string): Promise<EspResult<{ target: EspTarget }>>
  deliver(key: string, targetId: string, subscriber: EspSubscriber): Promise<EspResult<{ remoteId: string }>>
  /**
   * Takes a refunded reader out of the list (issue 38), as the provider's API allows: `remoteId` is the id the
   * provider gave at delivery. A subscriber the provider no longer has (404) counts as removed.
   */
  remove(key: string, targetId: string, remoteId: string, email: string): Promise<EspResult<{ alreadyGone: boolean }>>
  /**
   * A subscriber's opens and clicks so far. `remoteId` is the id the provider gave the subscriber at delivery (Kit
   * reads its stats by it); undefined for a provider whose API does not report them.
   */
  engagement?(
    key: string,
    targetId: string,
    email: string,
    remoteId?: string | null,
  ): Promise<EspResult<{ engagement: EspEngagement }>>
  /**
   * One page of the list's members with their engagement (one request), for reading back many readers of one list at
   * once: the same figures `engagement` gives per subscriber, so both paths reach the same verdict.
   */
  engagementList?(key: string, targetId: string, query: EspListQuery): Promise<EspResult<{ page: EspListPage }>>
}

/**
 * Published request budgets, for the scheduler that calls these clients (it spaces requests per key or
 * organisation; the clients themselves send one request per call and report 429s).
 * - Kit: 120 requests per rolling 60 s per API key (https://developers.kit.com/api-reference/overview, "Rate limiting").
 * - beehiiv: 180 requests per minute per organisation (https://developers.beehiiv.com/welcome/rate-limiting).
 * - Mailchimp: 10 simultaneous connections per user (https://mailchimp.com/developer/marketing/docs/fundamentals/#api-limits).
 * - MailerLite: 120 requests per minute (https://developers.mailerlite.com/docs/#rate-limits).
 */
export const ESP_RATE_BUDGETS: Record<
  EspProvider,
  { requests: number; windowMs: number; per: string } | { concurrent: number; per: string }
> = {
  beehiiv: { requests: 180, windowMs: 60_000, per: 'organisation' },
  kit: { requests: 120, windowMs: 60_000, per: 'api key' },
  mailchimp: { concurrent: 10, per: 'user' },
  mailerlite: { requests: 120, windowMs: 60_000, per: 'account' },
}
