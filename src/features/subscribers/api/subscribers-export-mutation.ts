/**
 * Downloads a campaign's confirmed subscribers as CSV from the export-subscribers function (RFC 4180 quoted and escaped
 * against spreadsheet formulas). A large campaign comes in parts, so each request stays inside hosted Supabase's
 * per-request CPU and memory limits: while the answer names the next part (`X-Export-Next`), it is asked for, and the
 * parts joined are the file (only the first has the header line).
 */
import { useMutation } from '@tanstack/react-query'
import { functionError } from '@/lib/function-error'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'

export async function exportSubscribers(campaignId: string): Promise<void> {
  const parts: string[] = []
  let after: string | null = null
  do {
    const body: Record<string, string> = after ? { campaignId, after } : { campaignId }
    const { data, error, response } = await supabase.functions.invoke<string>('export-subscribers', { body })
    if (error) throw await functionError(error, 'The export failed. Please try again.')
    parts.push(data ?? '')
    after = response?.headers.get('x-export-next') ?? null
  } while (after)
  const blob = new Blob(parts, { type: 'text/csv;charset=utf-8' })
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
