/**
 * Downloads a campaign's confirmed subscribers as CSV from the export-subscribers function (which streams it
 * page by page from the database, RFC 4180 quoted and escaped against spreadsheet formulas).
 */
import { useMutation } from '@tanstack/react-query'
import { functionError } from '@/lib/function-error'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'

export async function exportSubscribers(campaignId: string): Promise<void> {
  const { data, error } = await supabase.functions.invoke<string>('export-subscribers', { body: { campaignId } })
  if (error) throw await functionError(error, 'The export failed. Please try again.')
  const blob = new Blob([data ?? ''], { type: 'text/csv;charset=utf-8' })
  const link = document.createElement('a')
  link.href = URL.createObjectURL(blob)
  link.download = `subscribers-${campaignId.slice(0, 8)}-${new Date().toISOString().slice(0, 10)}.csv`
  link.click()
  setTimeout(() => URL.revokeObjectURL(link.href), 0)
}

export function useSubscribersExportMutation() {
  return useMutation({
    mutationFn: exportSubscribers,
    onError: (error: Error) => toast.error(`Failed to export subscribers: ${error.message}`),
  })
}
