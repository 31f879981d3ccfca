/** A page that failed to load or render (SPEC §2 Global screens). */
import { useRouteError } from 'react-router-dom'
import { Button } from '@/components/ui/button'

export function RouteErrorPage() {
  const error = useRouteError()
  if (error) console.error('Page failed', error)
  return (
    <main
      role="alert"
      className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-3 p-6 text-center"
    >
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="text-muted-foreground">There was an error loading this page.</p>
      <Button onClick={() => window.location.reload()}>Refresh page</Button>
    </main>
  )
}
