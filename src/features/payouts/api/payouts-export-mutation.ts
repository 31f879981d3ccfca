/**
 * "Export CSV" of the admin's payout requests: asks the database for up to MONEY_EXPORT_LIMIT rows of the current
 * search, builds the file in the browser (payouts-csv.ts) and downloads it. The panel shows the outcome beside its
 * filters, as the ledger's and deposits' exports do.
 */
import { useMutation } from '@tanstack/react-query'
import { downloadFile } from '@/lib/download-file'
import { moneyCsvFileName, type MoneyExportResult, type MoneyFilters } from '@/lib/money-filters'
import { payoutsCsv } from '../payouts-csv'
import { getAllPayoutRequestsExport } from './admin-payout-requests-query'

export async function exportPayoutRequests(filters: MoneyFilters): Promise<MoneyExportResult> {
  const fileName = moneyCsvFileName('payouts')
  const { rows, total } = await getAllPayoutRequestsExport(filters)
  downloadFile(fileName, payoutsCsv(rows))
  return { fileName, exported: rows.length, total }
}

export const usePayoutsExportMutation = () => useMutation({ mutationFn: exportPayoutRequests })
