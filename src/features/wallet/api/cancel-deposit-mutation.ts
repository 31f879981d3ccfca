/**
 * Close one of the advertiser's open checkouts (`cancel_deposit`): left on the payment page, or dismissed on the
 * wallet. Moves no money; if Stripe still reports it paid later, the payment is credited all the same.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'
import { walletKeys } from '../keys'

export async function cancelDeposit(sessionId: string): Promise<void> {
  const { error } = await supabase.rpc('cancel_deposit', { p_session_id: sessionId })
  if (error) throw error
}

export function useCancelDepositMutation({ quiet = false }: { quiet?: boolean } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: cancelDeposit,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletKeys.all }),
    onError: (error) => {
      if (!quiet) toast.error(`Failed to cancel the deposit: ${error.message}`)
    },
  })
}
