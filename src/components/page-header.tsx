/**
 * The top of every dashboard page: one h1, an optional line of explanation and the page's main actions. Same
 * sizes and spacing on every page and every role. The breadcrumbs of a deep page come from the route table
 * (the dashboard layout draws them above this header).
 */
import type { ReactNode } from 'react'
import { usePageTitle } from '@/lib/page-title'

type PageHeaderProps = {
  title: string
  description?: ReactNode
  actions?: ReactNode
  /** A more precise tab title than the route's (e.g. a newsletter's name). */
  documentTitle?: string
}

export function PageHeader({ title, description, actions, documentTitle }: PageHeaderProps) {
  usePageTitle(documentTitle)
  return (
    <header className="mb-6 flex flex-col gap-3">
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
