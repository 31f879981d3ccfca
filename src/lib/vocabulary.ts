/**
 * The product's one vocabulary (STYLE "One vocabulary"): categories, platforms, statuses, not-counted reasons and
 * transaction types. The words themselves are the database's enums (migration `…_vocabulary.sql`), reaching us
 * through the generated `Constants`; this module only gives each word its label and badge colour, once, for every
 * feature. A `Record<Enum, …>` makes the compiler ask for a label whenever the database gains a word.
 */
import { Constants, type Database } from '@/types/database.types'
import { formatCount } from './format'
import {
  categoryLabel,
  frequencyLabel,
  humanise,
  lookup,
  platformLabel,
  sourceStatus,
  word,
  type Word,
} from './vocabulary-catalog'

const values = Constants.public.Enums

type Enums = Database['public']['Enums']
export type CampaignStatus = Enums['campaign_status']
export type SubscriptionStatus = Enums['subscription_status']
export type NotCountedReason = Enums['not_counted_reason']
export type TransactionType = Enums['transaction_type']
export type TransactionStatus = Enums['transaction_status']
export type PayoutStatus = Enums['payout_status']
export type PayoutAccountState = Enums['payout_account_state']
export type DepositStatus = Enums['deposit_status']
export type UserType = Enums['user_type']
export type EspDeliveryStatus = Enums['esp_delivery_status']
export type PartnerMode = Enums['partner_mode']
export type PartnerStatus = Enums['partner_status']
export type { NewsletterFrequency } from './vocabulary-catalog'

const campaignStatuses: Record<CampaignStatus, Word> = {
  draft: { label: 'Draft', tone: 'grey' },
  pending_review: { label: 'Pending review', tone: 'yellow' },
  active: { label: 'Active', tone: 'green' },
  paused: { label: 'Paused', tone: 'yellow' },
  rejected: { label: 'Rejected', tone: 'red' },
  completed: { label: 'Completed', tone: 'grey' },
  archived: { label: 'Archived', tone: 'grey' },
  banned: { label: 'Banned', tone: 'red' },
}

const subscriptionStatuses: Record<SubscriptionStatus, Word> = {
  pending: { label: 'Waiting for confirmation', tone: 'yellow' },
  confirmed: { label: 'Confirmed', tone: 'green' },
  expired: { label: 'Expired', tone: 'grey' },
  unsubscribed: { label: 'Unsubscribed', tone: 'grey' },
  rejected: { label: 'Rejected', tone: 'red' },
  declined: { label: 'Declined by the reader', tone: 'grey' },
}

/**
 * The reason codes of PRODUCT "Attribution", in plain words, for clicks and subscribers alike: exactly the labels of
 * the database's word list (`public.not_counted_reasons`, whose rows supabase/schemas/02_vocabulary.sql shows), so a
 * screen that shows a code and one that shows the database's label read the same. src/lib/vocabulary.test.ts fails
 * when a label here differs from that row; a new reason needs its row (in its migration) and its line here.
 */
export const reasonLabels: Record<NotCountedReason, string> = {
  bot_user_agent: 'Bot or crawler',
  head_request: 'Link preview (HEAD request)',
  duplicate_visitor: 'Same visitor within 1 hour',
  source_inactive: 'Source not approved',
  account_suspended: 'Account suspended',
  rate_limited: 'Too many clicks from one address',
  self_referral: "The publisher's own address",
  disposable_email: 'Disposable email address',
  duplicate_email: 'Email already counted for this newsletter',
  too_fast_confirmation: 'Confirmed within 2 seconds',
  no_click: 'No counted click by the same visitor within 24 hours',
  velocity: 'More than 3 sign-ups an hour from one visitor',
  address_velocity: 'More than 10 sign-ups an hour from one address',
  domain_velocity: 'More than 3 readers a day from one email domain',
  budget_exhausted: 'Budget or balance exhausted',
  refunded: 'Refunded during screening (fraud or dispute)',
  // The words of the database's not_counted_reasons rows (…_engagement_verified_pay.sql, which runs first and so
  // writes not_engaged's row; …_partner_programs.sql), pinned in src/lib/vocabulary.test.ts and the db tests.
  not_engaged: 'No open or click within the engagement window',
  not_a_partner: 'Not a partner of this newsletter',
}

const transactionTypeLabels: Record<TransactionType, string> = {
  bonus: 'Bonus',
  deposit: 'Deposit',
  hold: 'Hold',
  release: 'Release',
  refund: 'Refund',
  earning: 'Earning',
  payout: 'Payout',
  credit: 'Credit',
  debit: 'Debit',
}

const transactionStatuses: Record<TransactionStatus, Word> = {
  pending: { label: 'Pending', tone: 'yellow' },
  completed: { label: 'Completed', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  canceled: { label: 'Canceled', tone: 'grey' },
}

/** Where a deposit (a checkout) stands; a closed checkout says how it closed. */
const depositStatuses: Record<DepositStatus, Word> = {
  pending: { label: 'Awaiting payment', tone: 'yellow' },
  completed: { label: 'Completed', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  expired: { label: 'Expired', tone: 'grey' },
  canceled: { label: 'Canceled', tone: 'grey' },
}

/** A wallet statement row's status: a charge moves from on hold to charged or refunded; other rows keep the ledger's. */
const statementStatuses: Record<string, Word> = {
  on_hold: { label: 'On hold', tone: 'yellow' },
  charged: { label: 'Charged', tone: 'green' },
  refunded: { label: 'Refunded', tone: 'grey' },
  ...transactionStatuses,
}

/** A wallet statement row's kind: a charge for a subscriber, or a ledger type. */
const statementKindLabels: Record<string, string> = { charge: 'Charge', ...transactionTypeLabels }

const payoutStatuses: Record<PayoutStatus, Word> = {
  requested: { label: 'Requested', tone: 'yellow' },
  sending: { label: 'Sending', tone: 'yellow' },
  paid: { label: 'Paid', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  reversed: { label: 'Reversed', tone: 'red' },
  canceled: { label: 'Canceled', tone: 'grey' },
}

const payoutAccountStates: Record<PayoutAccountState, Word> = {
  not_set_up: { label: 'Not set up', tone: 'grey' },
  pending_verification: { label: 'Pending verification', tone: 'yellow' },
  ready: { label: 'Ready', tone: 'green' },
  action_needed: { label: 'Action needed', tone: 'red' },
}

const userTypes: Record<UserType, Word> = {
  advertiser: { label: 'Advertiser', tone: 'grey' },
  publisher: { label: 'Influencer', tone: 'yellow' },
  admin: { label: 'Admin', tone: 'red' },
}

const disputeStatuses: Record<string, Word> = {
  open: { label: 'Open', tone: 'yellow' },
  upheld: { label: 'Upheld', tone: 'green' },
  rejected: { label: 'Rejected', tone: 'grey' },
}

/** A disputed reader's earning as publisher_dispute_readers says it: waiting for the decision, refunded or kept. */
const disputedReaderStates: Record<string, Word> = {
  on_hold: { label: 'On hold until the decision', tone: 'yellow' },
  refunded: { label: 'Refunded', tone: 'red' },
  kept: { label: 'Earning kept', tone: 'green' },
}

/** A user's standing as the audit log records suspensions (admin_set_user_suspended). */
const accountStates: Record<string, Word> = {
  active: { label: 'Active', tone: 'green' },
  suspended: { label: 'Suspended', tone: 'red' },
}

const espDeliveryStatuses: Record<EspDeliveryStatus, Word> = {
  queued: { label: 'Queued', tone: 'yellow' },
  delivered: { label: 'Delivered', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
}

/** Who may promote a newsletter (campaigns.partner_mode), as the newsletter form and the offers say it. */
const partnerModes: Record<PartnerMode, Word> = {
  open: { label: 'Open to every approved source', tone: 'grey' },
  approval: { label: 'By approval', tone: 'yellow' },
}

/** A source's standing with a newsletter's partner program (campaign_partners.status). */
const partnerStatuses: Record<PartnerStatus, Word> = {
  applied: { label: 'Applied', tone: 'yellow' },
  approved: { label: 'Partner', tone: 'green' },
  declined: { label: 'Declined', tone: 'grey' },
  blocked: { label: 'Blocked', tone: 'red' },
}

// How often a newsletter goes out: lib/vocabulary-catalog.ts (the directory's cards show it).
export { NEWSLETTER_FREQUENCIES, frequencyLabel, frequencyOptions, isFrequency } from './vocabulary-catalog'

export const partnerMode = (mode: string) => word(partnerModes, mode)
export const partnerStatus = (status: string) => word(partnerStatuses, status)
export const partnerModeOptions = values.partner_mode.map((value) => ({ value, label: partnerModes[value].label }))

export const campaignStatus = (status: string) => word(campaignStatuses, status)
export const subscriptionStatus = (status: string) => word(subscriptionStatuses, status)
/** A refunded reader (marked rejected, reason refunded) reads Refunded, not Rejected, on every screen and export. */
const refundedReader: Word = { label: 'Refunded', tone: 'red' }
export const readerStatus = (status: string, notCountedReason?: string | null) =>
  notCountedReason === 'refunded' ? refundedReader : subscriptionStatus(status)
export const transactionStatus = (status: string) => word(transactionStatuses, status)
export const payoutStatus = (status: string) => word(payoutStatuses, status)
export const payoutAccountState = (state: string) => word(payoutAccountStates, state)
export const depositStatus = (status: string) => word(depositStatuses, status)
export const statementStatus = (status: string) => word(statementStatuses, status)
export const statementKindLabel = (kind: string) => lookup(statementKindLabels, kind) ?? humanise(kind)
export const userTypeWord = (type: string) => word(userTypes, type)
export const disputeStatus = (status: string) => word(disputeStatuses, status)
export const disputedReaderState = (state: string) => word(disputedReaderStates, state)

/** A status as the audit log records it for its kind of subject, in the words its own screens use. */
export function auditStatusLabel(subjectType: string, status: string): string {
  switch (subjectType) {
    case 'audience_source':
      return sourceStatus(status).label
    case 'campaign':
      return campaignStatus(status).label
    case 'subscription':
      return subscriptionStatus(status).label
    case 'payout_request':
      return payoutStatus(status).label
    case 'dispute':
      return disputeStatus(status).label
    case 'profile':
      return (lookup(accountStates, status) ?? userTypeWord(status)).label
    default:
      return humanise(status)
  }
}
export const espDeliveryStatus = (status: string) => word(espDeliveryStatuses, status)

/** What a newsletter pays for (campaigns.pay_rule), in the words of the form, the offers and the evidence. */
export type PayRule = 'confirmed' | 'engaged'
export function payRuleLabel(rule: string | null | undefined, windowDays?: number | null): string {
  return rule === 'engaged'
    ? `Pays per engaged reader: opens or clicks within ${windowDays ?? 14} days`
    : 'Pays per confirmed reader'
}

/** A subscriber's money as subscriber_evidence decides it (the evidence row). */
const evidenceDecisions: Record<string, Word> = {
  on_hold: { label: 'On hold', tone: 'yellow' },
  charged: { label: 'Charged', tone: 'green' },
  released: { label: 'Released, not charged', tone: 'grey' },
  not_charged: { label: 'Not charged', tone: 'grey' },
}
export const evidenceDecision = (decision: string) => word(evidenceDecisions, decision)
export const reasonLabel = (reason: string) => lookup(reasonLabels, reason) ?? humanise(reason)
export const transactionTypeLabel = (type: string) => lookup(transactionTypeLabels, type) ?? humanise(type)

export const transactionTypeOptions = values.transaction_type.map((value) => ({
  value,
  label: transactionTypeLabels[value],
}))
export const transactionStatusOptions = values.transaction_status.map((value) => ({
  value,
  label: transactionStatuses[value].label,
}))
/** Ledger types only a publisher's wallet holds (their Payouts page shows them): the advertiser's Wallet never offers them. */
const publisherOnlyTypes: readonly string[] = ['earning', 'payout']
/** The advertiser's wallet statement's kinds (wallet_statement's p_kind): a charge, or a ledger type other than a hold
 * (the statement always shows a hold as its charge) and other than a publisher's own. */
export const statementKindOptions = [
  { value: 'charge', label: statementKindLabels.charge! },
  ...transactionTypeOptions.filter((option) => option.value !== 'hold' && !publisherOnlyTypes.includes(option.value)),
]
/** The wallet statement's statuses (wallet_statement's p_status): a charge's lifecycle, then the ledger's. */
export const statementStatusOptions = ['on_hold', 'charged', 'refunded', ...values.transaction_status].map((value) => ({
  value,
  label: statementStatuses[value]!.label,
}))
export const depositStatusOptions = values.deposit_status.map((value) => ({
  value,
  label: depositStatuses[value].label,
}))
export const payoutStatusOptions = values.payout_status.map((value) => ({
  value,
  label: payoutStatuses[value].label,
}))

/** The public fields an owner can revise after approval (PRODUCT "Edits after approval"), in plain words. */
const revisionFieldLabels: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  image_url: 'Image URL',
  website_url: 'Website URL',
  url: 'URL',
  category: 'Category',
  platform: 'Platform',
  sample_issue_url: 'Sample issue link',
  frequency: 'How often it goes out',
  audience_size: 'Audience size',
  audience_line: 'Who it is for',
}
export const revisionFieldLabel = (field: string) => lookup(revisionFieldLabels, field) ?? humanise(field)

/**
 * A field's value as a revision shows it: categories, platforms and frequencies by their label, an audience size as
 * the landing page writes it, nothing as a dash.
 */
export function revisionFieldValue(field: string, value: string | null | undefined): string {
  if (value == null || value === '') return '—'
  if (field === 'category') return categoryLabel(value)
  if (field === 'platform') return platformLabel(value)
  if (field === 'frequency') return frequencyLabel(value)
  if (field === 'audience_size' && /^\d+$/.test(value)) return `${formatCount(Number(value))} readers`
  return value
}
