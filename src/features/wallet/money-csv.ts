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

export function ledgerCsv(rows: readonly AdminLedgerRow[]): string {
  const header = ['Date (UTC)', 'Email', 'Name', 'Type', 'Status', 'Amount (credits)', 'Description', 'Reference']
  return [
    csvRow([...header, 'Settles (UTC)']),
    ...rows.map((r) =>
      csvRow([
        r.created_at,
        r.user_email,
        r.user_name,
        transactionTypeLabel(r.type),
        transactionStatus(r.status).label,
        amount(r.amount),
        r.description,
        r.reference,
        r.available_at,
      ]),
    ),
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
    csvRow(['Date (UTC)', 'Type', 'Description', 'Status', 'Amount (credits)', 'Refunded (credits)', 'Settled (UTC)']),
    ...rows.map((r) =>
      csvRow([
        r.occurredAt,
        statementKindLabel(r.kind),
        r.description,
        statementStatus(r.status).label,
        amount(r.amount),
        amount(r.refunded),
        r.settledAt,
      ]),
    ),
  ].join('')
}
