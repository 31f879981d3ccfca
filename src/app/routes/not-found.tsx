/** Any path the app does not know (SPEC §2). */
import { Link } from 'react-router-dom'
import { Button } from '@/components/ui/button'
import { paths } from '@/config/paths'

export default function NotFoundPage() {
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 text-center">
      <p className="text-sm font-semibold tracking-wide text-primary uppercase">404</p>
      <h1 className="text-3xl font-bold tracking-tight">Page not found</h1>
      <p className="text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <div className="flex flex-wrap justify-center gap-2">
        <Button asChild>
          <Link to={paths.home}>Go home</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={paths.newsletters}>Browse newsletters</Link>
        </Button>
      </div>
    </div>
  )
}
