/**
 * Payment return detection (SPEC §2 Global screens): the hosted checkout sends the browser back with
 * `session_id` (paid) or `payment=canceled`. Mounted once in the root layout: it shows the toast, then
 * clears the query so a reload does not show it again.
 */
import { useEffect, useRef } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { toast } from '@/lib/toast'

export type PaymentReturn = 'success' | 'canceled' | null

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
    navigate({ pathname: location.pathname, hash: location.hash }, { replace: true })
  }, [location, navigate])

  return null
}
