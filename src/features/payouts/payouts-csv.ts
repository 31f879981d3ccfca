/**
 * The admin's payout requests as CSV, built in the browser from the rows admin_payout_requests returned for the
 * current filters: the table's words (status labels from the vocabulary, amounts in credits with two decimals, UTC
 * timestamps), every field quoted and guarded against spreadsheet formulas by the shared rule (`@rules/csv`).
 */
import { csvRow } from '@rules/csv'
import { toCredits } from '@/lib/format'
import { payoutStatus } from '@/lib/vocabulary'
import type { AnyPayoutRequest } from './api/admin-payout-requests-query'

export function payoutsCsv(rows: readonly AnyPayoutRequest[]): string {
  return [
    csvRow([
      'Requested (UTC)',
      'Email',
      'Name',
      'Status',
      'Amount (credits)',
      'Transfer reference',
      'Paid (UTC)',
      'Failed (UTC)',
      'Failure reason',
      'Attempts',
      'Reversed (credits)',
      'Reversed (UTC)',
    ]),
    ...rows.map((r) =>
      csvRow([
        r.created_at,
        r.publisher_email,
        r.publisher_name,
        payoutStatus(r.status).label,
        toCredits(r.amount).toFixed(2),
        r.transfer_reference,
        r.paid_at,
        r.failed_at,
        r.failure_reason,
        String(r.attempts),
        toCredits(r.amount_reversed).toFixed(2),
        r.reversed_at,
      ]),
    ),
  ].join('')
}
