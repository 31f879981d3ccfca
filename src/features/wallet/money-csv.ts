/**
 * The Money exports as CSV (the admin's ledger and deposits, the advertiser's own wallet statement), built in the browser from the rows the database returned for the current
 * filters: the table's words (labels from the vocabulary, amounts in credits with two decimals), every field
 * quoted and guarded against spreadsheet formulas by the same rule export-subscribers uses (`@rules/csv`).
 */
import { csvRow } from '@rules/csv'
import { toCredits } from '@/lib/format'
import {
  depositStatus,
  statementKindLabel,
  statementStatus,
  transactionStatus,
  transactionTypeLabel,
} from '@/lib/vocabulary'
import type { AdminLedgerRow } from './api/admin-ledger-query'
import type { StatementRow } from './api/wallet-transactions-query'
import type { AdminDepositRow } from './api/admin-deposits-query'

const amount = (value: number | string | null | undefined) => toCredits(value).toFixed(2)

/**
 * A ledger row in the words of the advertiser's statement: a refunded charge's 0.00 release (its hold cancelled, the
 * amount given back in `refunded`) reads Refund · Refunded, as the statement's "4.00 credits refunded" does.
 */
export function ledgerWords(r: Pick<AdminLedgerRow, 'type' | 'status' | 'refunded'>) {
  const refund = toCredits(r.refunded) > 0
  return {
    type: transactionTypeLabel(refund ? 'refund' : r.type),
    status: refund ? statementStatus('refunded') : transactionStatus(r.status),
  }
}

export function ledgerCsv(rows: readonly AdminLedgerRow[]): string {
  const header = ['Date (UTC)', 'Email', 'Name', 'Type', 'Status', 'Amount (credits)', 'Refunded (credits)']
  return [
    csvRow([
      ...header,
      'Description',
      'Subscriber',
      'Source',
      'Newsletter',
      'Reference',
      'Stripe reference',
      'Settles (UTC)',
    ]),
    ...rows.map((r) => {
      const words = ledgerWords(r)
      return csvRow([
        r.created_at,
        r.user_email,
        r.user_name,
        words.type,
        words.status.label,
        amount(r.amount),
        amount(r.refunded),
        r.description,
        r.subscriber_email,
        r.source_name,
        r.newsletter_name,
        r.reference,
        r.stripe_reference,
        r.available_at,
      ])
    }),
  ].join('')
}

export function depositsCsv(rows: readonly AdminDepositRow[]): string {
  return [
    csvRow([
      'Date (UTC)',
      'Email',
      'Name',
      'Status',
      'Amount (credits)',
      'Stripe checkout session',
      'Stripe payment',
      'Failure reason',
      'Completed (UTC)',
    ]),
    ...rows.map((r) =>
      csvRow([
        r.created_at,
        r.user_email,
        r.user_name,
        depositStatus(r.status).label,
        amount(r.amount),
        r.stripe_session_id,
        r.stripe_payment_intent,
        r.failure_reason,
        r.completed_at,
      ]),
    ),
  ].join('')
}

/** The wallet statement as the Transactions table shows it: a charge's amount, and what was given back if refunded. */
export function statementCsv(rows: readonly StatementRow[]): string {
  return [
    csvRow([
      'Date (UTC)',
      'Type',
      'Description',
      'Subscriber',
      'Source',
      'Reference',
      'Status',
      'Amount (credits)',
      'Refunded (credits)',
      'Settled (UTC)',
    ]),
    ...rows.map((r) =>
      csvRow([
        r.occurredAt,
        statementKindLabel(r.kind),
        r.description,
        r.subscriberEmail,
        r.sourceName,
        r.reference,
        statementStatus(r.status).label,
        amount(r.amount),
        amount(r.refunded),
        r.settledAt,
      ]),
    ),
  ].join('')
}
