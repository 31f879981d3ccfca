/** Loading and error blocks shared by the publisher panels. */
import { PageSpinner } from '@/components/page-spinner'

export function PanelState({ state, message }: { state: 'loading' | 'error'; message?: string }) {
  if (state === 'loading') return <PageSpinner />
  return (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800">
      Could not load this part of your dashboard{message ? `: ${message}` : '.'}
    </p>
  )
}
