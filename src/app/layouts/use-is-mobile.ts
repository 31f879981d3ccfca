/** SPEC §9: "mobile" is a viewport under 768 px or a mobile browser, whatever its width. */
import { useSyncExternalStore } from 'react'

export const MOBILE_BREAKPOINT_PX = 768
const QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`
const MOBILE_UA = /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i

export const isMobileUserAgent = (userAgent: string) => MOBILE_UA.test(userAgent)

function subscribe(onChange: () => void) {
  if (typeof window.matchMedia !== 'function') return () => {}
  const list = window.matchMedia(QUERY)
  list.addEventListener('change', onChange)
  return () => list.removeEventListener('change', onChange)
}

function snapshot() {
  const narrow = typeof window.matchMedia === 'function' && window.matchMedia(QUERY).matches
  return narrow || isMobileUserAgent(window.navigator.userAgent)
}

export const useIsMobile = () => useSyncExternalStore(subscribe, snapshot, () => false)
