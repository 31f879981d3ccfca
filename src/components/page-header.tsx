/**
 * The top of every dashboard page: breadcrumbs when the page is deep, one h1, an optional line of
 * explanation and the page's main actions. Same sizes and spacing on every page and every role.
 */
import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { ChevronRightIcon } from 'lucide-react'
import { usePageTitle } from '@/lib/page-title'

export type Crumb = { label: string; to?: string }

type PageHeaderProps = {
  title: string
  description?: ReactNode
  actions?: ReactNode
  /** The way back up, ending before this page (its own title is added). */
  breadcrumbs?: Crumb[]
  /** A more precise tab title than the route's (e.g. a newsletter's name). */
  documentTitle?: string
}

export function PageHeader({ title, description, actions, breadcrumbs, documentTitle }: PageHeaderProps) {
  usePageTitle(documentTitle)
  return (
    <header className="mb-6 flex flex-col gap-3">
      {breadcrumbs?.length ? (
        <nav aria-label="Breadcrumb">
          <ol className="flex flex-wrap items-center gap-1 text-sm text-muted-foreground">
            {breadcrumbs.map((crumb) => (
              <li key={crumb.label} className="flex items-center gap-1">
                {crumb.to ? (
                  <Link
                    to={crumb.to}
                    className="rounded hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  >
                    {crumb.label}
                  </Link>
                ) : (
                  <span>{crumb.label}</span>
                )}
                <ChevronRightIcon className="size-3.5" aria-hidden="true" />
              </li>
            ))}
            <li aria-current="page" className="min-w-0 truncate text-foreground">
              {title}
            </li>
          </ol>
        </nav>
      ) : null}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight break-words">{title}</h1>
          {description ? <p className="mt-1 text-muted-foreground">{description}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </div>
    </header>
  )
}
