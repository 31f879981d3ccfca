/**
 * The admin decides against a suspended account: every subscriber of it still in screening is refunded
 * (admin_refund_held_money, through the same refund as an upheld dispute), with a reason both sides read.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { toast } from '@/lib/toast'
import { adminQueryRoot } from '@/lib/admin-query-root'
import { formatCredits } from '@/lib/format'

export type RefundHeldMoneyVariables = { userId: string; reason: string }
export type RefundHeldMoneyResult = { refunded_subscribers: number; refunded: number }

export async function refundHeldMoney({ userId, reason }: RefundHeldMoneyVariables): Promise<RefundHeldMoneyResult> {
  const { data, error } = await supabase.rpc('admin_refund_held_money', { p_user_id: userId, p_reason: reason })
  if (error) throw error
  return data as RefundHeldMoneyResult
}

export function useRefundHeldMoneyMutation({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: refundHeldMoney,
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot })
      toast.success(
        `Refunded ${formatCredits(result.refunded)} for ${result.refunded_subscribers} subscriber${result.refunded_subscribers === 1 ? '' : 's'}`,
      )
      onSuccess?.()
    },
    onError: (error: Error) => toast.error(`Could not refund the held money: ${error.message}`),
  })
}
