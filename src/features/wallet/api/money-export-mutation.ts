/**
 * "Export CSV" of a Money table (the admin's ledger and deposits, the advertiser's own wallet statement): asks the
 * database for up to MONEY_EXPORT_LIMIT rows of the current filters, builds the file in the browser (money-csv.ts)
 * and downloads it. The panel shows the outcome (how many rows, the limit when it was hit) and any refusal beside
 * its filters, so no toast is added here.
 */
import { useMutation } from '@tanstack/react-query'
import { downloadFile } from '@/lib/download-file'
import { moneyCsvFileName, type MoneyExportResult, type MoneyFilters, type MoneyRows } from '@/lib/money-filters'
import { depositsCsv, ledgerCsv, statementCsv } from '../money-csv'
import { getAdminLedgerExport } from './admin-ledger-query'
import { getAdminDepositsExport } from './admin-deposits-query'
import { getWalletStatementExport } from './wallet-transactions-query'

export type MoneyExport = 'ledger' | 'deposits' | 'wallet'

/** Each export: its rows for the filters, and their file text. */
function exporter<T>(read: (filters: MoneyFilters) => Promise<MoneyRows<T>>, csv: (rows: readonly T[]) => string) {
  return async (filters: MoneyFilters) => {
    const { rows, total } = await read(filters)
    return { text: csv(rows), exported: rows.length, total }
  }
}
const exporters = {
  ledger: exporter(getAdminLedgerExport, ledgerCsv),
  deposits: exporter(getAdminDepositsExport, depositsCsv),
  wallet: exporter(getWalletStatementExport, statementCsv),
} satisfies Record<MoneyExport, unknown>

export async function exportMoney(what: MoneyExport, filters: MoneyFilters): Promise<MoneyExportResult> {
  const fileName = moneyCsvFileName(what)
  const { text, exported, total } = await exporters[what](filters)
  downloadFile(fileName, text)
  return { fileName, exported, total }
}

export const useMoneyExportMutation = (what: MoneyExport) =>
  useMutation({ mutationFn: (filters: MoneyFilters) => exportMoney(what, filters) })
