import { describe, expect, it } from 'vitest'
import {
  isFiltered,
  moneyCsvFileName,
  NO_MONEY_FILTERS,
  readMoneyFilters,
  writeMoneyFilters,
  type MoneyFilters,
} from '@/lib/money-filters'
import { depositsCsv, ledgerCsv } from '@/features/wallet/money-csv'
import { exportOutcome } from '@/components/money-export'
import type { AdminLedgerRow } from '@/features/wallet/api/admin-ledger-query'
import type { AdminDepositRow } from '@/features/wallet/api/admin-deposits-query'

const filtered: MoneyFilters = {
  search: 'ada@example.com',
  type: 'hold',
  status: 'pending',
  from: '2026-11-01',
  to: '2026-11-30',
  page: 2,
}

describe('money filters in the URL', () => {
  it('round-trips every filter through the search parameters, the page shown 1-based', () => {
    const params = writeMoneyFilters(new URLSearchParams(), 'tx', filtered)
    expect(params.toString()).toBe(
      'tx_q=ada%40example.com&tx_type=hold&tx_status=pending&tx_from=2026-11-01&tx_to=2026-11-30&tx_page=3',
    )
    expect(readMoneyFilters(params, 'tx')).toEqual(filtered)
  })

  it("keeps the other table's parameters and leaves empty filters and the first page out", () => {
    const start = new URLSearchParams('dep_q=cs_test&tx_q=old&tx_page=4')
    const params = writeMoneyFilters(start, 'tx', { ...NO_MONEY_FILTERS, search: '  ' })
    expect(params.toString()).toBe('dep_q=cs_test')
    expect(readMoneyFilters(params, 'dep')).toEqual({ ...NO_MONEY_FILTERS, search: 'cs_test' })
    expect(readMoneyFilters(params, 'tx')).toEqual(NO_MONEY_FILTERS)
  })

  it('reads a page that is not a positive whole number as the first page', () => {
    for (const page of ['0', '-2', 'x', '1.5', ''])
      expect(readMoneyFilters(new URLSearchParams({ tx_page: page }), 'tx').page).toBe(0)
  })

  it('tells a narrowed view from the whole table', () => {
    expect(isFiltered(NO_MONEY_FILTERS)).toBe(false)
    expect(isFiltered({ ...NO_MONEY_FILTERS, page: 3, search: ' ' })).toBe(false)
    expect(isFiltered({ ...NO_MONEY_FILTERS, status: 'failed' })).toBe(true)
    expect(isFiltered({ ...NO_MONEY_FILTERS, from: '2026-01-01' })).toBe(true)
  })
})

const ledgerRow = (over: Partial<AdminLedgerRow> = {}): AdminLedgerRow => ({
  id: 't1',
  created_at: '2026-11-01T09:00:00+00:00',
  user_id: 'u1',
  user_email: 'ada@example.com',
  user_name: 'Ada Advertiser',
  amount: -2.5,
  type: 'hold',
  status: 'pending',
  description: 'Subscriber, "Weekly" digest\nsecond line',
  reference: '=HYPERLINK("http://evil")',
  available_at: '2026-11-08T09:00:00+00:00',
  total_count: 1,
  refunded: 0,
  subscriber_email: null as unknown as string,
  source_name: null as unknown as string,
  newsletter_name: null as unknown as string,
  stripe_reference: null as unknown as string,
  ...over,
})

describe('money CSV', () => {
  it('writes the table words, quotes every field, doubles quotes and keeps commas and newlines inside', () => {
    const lines = ledgerCsv([ledgerRow()]).split('\r\n')
    expect(lines[0]).toBe(
      '"Date (UTC)","Email","Name","Type","Status","Amount (credits)","Refunded (credits)","Description","Subscriber",' +
        '"Source","Newsletter","Reference","Stripe reference","Settles (UTC)"',
    )
    expect(lines.slice(1).join('\r\n')).toBe(
      '"2026-11-01T09:00:00+00:00","ada@example.com","Ada Advertiser","Hold","Pending","-2.50","0.00",' +
        '"Subscriber, ""Weekly"" digest\nsecond line","","","","\'=HYPERLINK(""http://evil"")","","2026-11-08T09:00:00+00:00"\r\n',
    )
  })

  it('reads a refunded charge’s 0.00 release as the refund, with its amount, subscriber, source and newsletter (issue 38)', () => {
    const row = ledgerCsv([
      ledgerRow({
        type: 'release',
        status: 'completed',
        amount: 0,
        refunded: 4,
        description: 'Hold released: dispute upheld',
        subscriber_email: 'reader@example.com',
        source_name: 'Growth Tweets',
        newsletter_name: 'Morning Brew',
        reference: 'subscription:s1',
      }),
    ]).split('\r\n')[1]
    expect(row).toContain(
      '"Refund","Refunded","0.00","4.00","Hold released: dispute upheld","reader@example.com","Growth Tweets","Morning Brew","subscription:s1"',
    )
    expect(row).not.toContain('Release')
  })

  it('prefixes a value a spreadsheet would run (= + - @) with a quote, but not a plain amount', () => {
    const csv = ledgerCsv([
      ledgerRow({
        user_name: '+cmd',
        user_email: '@sum',
        description: '-1+2',
        reference: null as unknown as string,
        amount: 40,
      }),
    ])
    const row = csv.split('\r\n')[1]
    expect(row).toContain(`"'@sum","'+cmd","Hold","Pending","40.00","0.00","'-1+2",""`)
    expect(ledgerCsv([ledgerRow({ amount: '-12.5' as unknown as number })])).toContain(`"-12.50"`)
  })

  it('writes deposits with their status label and Stripe references', () => {
    const row: AdminDepositRow = {
      id: 'd1',
      created_at: '2026-11-01T09:00:00+00:00',
      user_id: 'u1',
      user_email: 'ada@example.com',
      user_name: 'Ada Advertiser',
      amount: 25,
      status: 'pending',
      stripe_session_id: 'cs_test_1',
      stripe_payment_intent: null as unknown as string,
      failure_reason: null as unknown as string,
      completed_at: null as unknown as string,
      total_count: 1,
    }
    expect(depositsCsv([row]).split('\r\n')[1]).toBe(
      '"2026-11-01T09:00:00+00:00","ada@example.com","Ada Advertiser","Awaiting payment","25.00","cs_test_1","","",""',
    )
  })

  it('names the file after what it holds and the UTC day', () => {
    expect(moneyCsvFileName('ledger', new Date('2026-11-26T23:30:00Z'))).toBe('growletter-ledger-2026-11-26.csv')
    expect(moneyCsvFileName('deposits', new Date('2026-11-27T00:30:00Z'))).toBe('growletter-deposits-2026-11-27.csv')
  })

  it('says how many rows were exported, and when the 10,000-row limit cut the export', () => {
    expect(exportOutcome({ fileName: 'f.csv', exported: 1, total: 1 })).toBe('Exported 1 row to f.csv.')
    expect(exportOutcome({ fileName: 'f.csv', exported: 0, total: 0 })).toBe('Exported 0 rows to f.csv.')
    expect(exportOutcome({ fileName: 'f.csv', exported: 10_000, total: 12_345 })).toBe(
      'Exported the first 10,000 rows of 12,345 to f.csv: an export holds at most 10,000 rows, so narrow the filters to export the rest.',
    )
  })
})
