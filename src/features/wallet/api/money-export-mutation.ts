/**
 * "Export CSV" of an admin Money table: asks the database for up to MONEY_EXPORT_LIMIT rows of the current search,
 * builds the file in the browser (money-csv.ts) and downloads it. The panel shows the outcome (how many rows, the
 * limit when it was hit) and any refusal beside its filters, so no toast is added here.
 */
import { useMutation } from '@tanstack/react-query'
import { downloadFile } from '@/lib/download-file'
import { moneyCsvFileName, type MoneyExportResult, type MoneyFilters } from '@/lib/money-filters'
import { depositsCsv, ledgerCsv } from '../money-csv'
import { getAdminLedgerExport } from './admin-ledger-query'
import { getAdminDepositsExport } from './admin-deposits-query'

export type MoneyExport = 'ledger' | 'deposits'

export async function exportMoney(what: MoneyExport, filters: MoneyFilters): Promise<MoneyExportResult> {
  const fileName = moneyCsvFileName(what)
  let text: string
  let exported: number
  let total: number
  if (what === 'ledger') {
    const result = await getAdminLedgerExport(filters)
    ;({ total } = result)
    exported = result.rows.length
    text = ledgerCsv(result.rows)
  } else {
    const result = await getAdminDepositsExport(filters)
    ;({ total } = result)
    exported = result.rows.length
    text = depositsCsv(result.rows)
  }
  downloadFile(fileName, text)
  return { fileName, exported, total }
}

export const useMoneyExportMutation = (what: MoneyExport) =>
  useMutation({ mutationFn: (filters: MoneyFilters) => exportMoney(what, filters) })
