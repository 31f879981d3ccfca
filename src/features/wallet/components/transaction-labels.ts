/** How ledger types and statuses read to a person, and which badge colour each status gets. */
export const transactionTypeLabel: Record<string, string> = {
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

export const transactionStatusVariant = (status: string) =>
  status === 'completed' ? 'green' : status === 'pending' ? 'yellow' : status === 'failed' ? 'red' : 'grey'
