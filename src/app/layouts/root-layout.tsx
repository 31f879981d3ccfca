/** The frame of every page: header, the page, and the footer for signed-out visitors. */
import { Suspense } from 'react'
import { Outlet } from 'react-router-dom'
import { PageSpinner } from '@/components/page-spinner'

export function RootLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <main id="main" className="flex-1">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  )
}
