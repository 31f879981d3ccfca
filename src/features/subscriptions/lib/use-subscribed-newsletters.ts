/** The `subscribed_newsletters` list as React state, refreshed after each subscription. */
import { useCallback, useState } from 'react'
import { readSubscribedNewsletters } from './subscribed-newsletters'

export function useSubscribedNewsletters() {
  const [ids, setIds] = useState<string[]>(readSubscribedNewsletters)
  const refresh = useCallback(() => setIds(readSubscribedNewsletters()), [])
  return { ids, refresh }
}
