/**
 * Payment return detection (SPEC §2 Global screens): the hosted checkout sends the browser back with
 * `session_id` (paid) or `payment=canceled`. Mounted once in the root layout: it shows the toast, then
 * clears the query so a reload does not show it again. The session id moves to the history entry's state
 * (`PaymentReturnState`), where the wallet picks it up to follow that deposit until it is credited.
 */
import { useEffect, useRef } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { toast } from '@/lib/toast'
import { sessionStorageKeys } from '@/lib/storage-keys'

export type PaymentReturn = 'success' | 'canceled' | null
export type PaymentReturnState = {
  paymentReturn: Exclude<PaymentReturn, null>
  sessionId?: string
  /** The checkout this tab opened and the advertiser left through cancel_url: the wallet closes its deposit. */
  canceledSessionId?: string
}

/** The checkout session a cancelled payment return left in the location state, if any. */
export function paymentCanceledSessionId(state: unknown): string | undefined {
  const value = (state as Partial<PaymentReturnState> | null)?.canceledSessionId
  return typeof value === 'string' ? value : undefined
}

/** Takes the checkout this tab opened last out of session storage (once). */
function takeOpenCheckout(): string | undefined {
  try {
    const id = window.sessionStorage.getItem(sessionStorageKeys.openCheckout) ?? undefined
    window.sessionStorage.removeItem(sessionStorageKeys.openCheckout)
    return id
  } catch {
    return undefined
  }
}

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
    const opened = takeOpenCheckout()
    const state: PaymentReturnState = {
      paymentReturn: result,
      sessionId: new URLSearchParams(location.search).get('session_id') ?? undefined,
      canceledSessionId: result === 'canceled' ? opened : undefined,
    }
    navigate({ pathname: location.pathname, hash: location.hash }, { replace: true, state })
  }, [location, navigate])

  return null
}
