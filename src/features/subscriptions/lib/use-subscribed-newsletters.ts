/** The `subscribed_newsletters` and `confirmed_newsletters` lists as React state, refreshed after each subscription. */
import { useCallback, useState } from 'react'
import { readConfirmedNewsletters, readSubscribedNewsletters } from './subscribed-newsletters'

export function useSubscribedNewsletters() {
  const [ids, setIds] = useState<string[]>(readSubscribedNewsletters)
  const [confirmedIds, setConfirmedIds] = useState<string[]>(readConfirmedNewsletters)
  const refresh = useCallback(() => {
    setIds(readSubscribedNewsletters())
    setConfirmedIds(readConfirmedNewsletters())
  }, [])
  return { ids, confirmedIds, refresh }
}
