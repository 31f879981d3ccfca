/**
 * Payment return detection (SPEC §2 Global screens): the hosted checkout sends the browser back with
 * `session_id` (paid) or `payment=canceled`. Mounted once in the root layout: it shows the toast, then
 * clears the query so a reload does not show it again. The session id moves to the history entry's state
 * (`PaymentReturnState`), where the wallet picks it up to follow that deposit until it is credited.
 */
import { useEffect, useRef } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { toast } from '@/lib/toast'

export type PaymentReturn = 'success' | 'canceled' | null
export type PaymentReturnState = { paymentReturn: Exclude<PaymentReturn, null>; sessionId?: string }

/** The session id a payment return left in the location state, if any. */
export function paymentReturnSessionId(state: unknown): string | undefined {
  const value = (state as Partial<PaymentReturnState> | null)?.sessionId
  return typeof value === 'string' ? value : undefined
}

export function detectPaymentReturn(search: string): PaymentReturn {
  const params = new URLSearchParams(search)
  if (params.get('session_id')) return 'success'
  if (params.get('payment') === 'canceled') return 'canceled'
  return null
}

export function PaymentReturnToast() {
  const location = useLocation()
  const navigate = useNavigate()
  const handled = useRef(false)

  useEffect(() => {
    if (handled.current) return
    handled.current = true
    const result = detectPaymentReturn(location.search)
    if (!result) return
    if (result === 'success') {
      toast.success('Payment successful', { description: 'Your credits are being added to your wallet.' })
    } else {
      toast('Payment canceled', { description: 'No money was taken. You can try again whenever you like.' })
    }
    const state: PaymentReturnState = {
      paymentReturn: result,
      sessionId: new URLSearchParams(location.search).get('session_id') ?? undefined,
    }
    navigate({ pathname: location.pathname, hash: location.hash }, { replace: true, state })
  }, [location, navigate])

  return null
}
