/**
 * Public pages render without tailwind-merge (src/lib/class-merge.ts; `cn` only joins there), which holds only while
 * no element on them carries two utilities of which tailwind-merge would drop one. Every public route is rendered
 * signed out, with newsletters to list, and every class attribute is checked against what tailwind-merge would keep.
 */
import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { screen } from '@testing-library/react'
import { twMerge } from 'tailwind-merge'
import { cn } from '@/lib/utils'
import { restUrl, server } from '../testing/msw-server'
import { renderRoute } from '../testing/render-route'
import { CAMPAIGNS, campaignsHandler, engagedRatesHandler } from '../testing/newsletter-fixtures'

// The routes router.tsx marks publicPage, at paths that render them (the earn page redirects, so it is left out:
// it renders no markup of its own).
const PUBLIC_PATHS = [
  '/',
  '/audiences',
  '/newsletters',
  '/campaigns',
  '/newsletters/unavailable',
  '/login',
  '/register',
  '/help',
  '/terms',
  '/privacy',
  '/about',
  '/cookies',
  '/gdpr',
  '/contact',
]

/** Classes tailwind-merge would drop from an element's class list. */
function dropped(classes: string): string[] {
  const kept = new Set(twMerge(classes).split(/\s+/))
  return classes.split(/\s+/).filter((c) => c && !kept.has(c))
}

describe('public pages without tailwind-merge', () => {
  it.each(PUBLIC_PATHS)('%s carries no conflicting utilities', async (path) => {
    server.use(
      campaignsHandler(CAMPAIGNS),
      engagedRatesHandler([]),
      http.get(restUrl('*'), () => HttpResponse.json([])),
      http.post(restUrl('rpc/*'), () => HttpResponse.json([])),
    )
    renderRoute(path)
    await screen.findByRole('heading', { level: 1 })
    // The premise: nothing on a public page installed tailwind-merge.
    expect(cn('h-10', 'h-8')).toBe('h-10 h-8')
    // The directory's cards are the one part that waits for data.
    if (path === '/newsletters' || path === '/campaigns') await screen.findAllByTestId('newsletter-card')
    const conflicts = [...document.body.querySelectorAll('[class]')]
      .map((el) => ({ el: el.tagName.toLowerCase(), dropped: dropped(el.getAttribute('class') ?? '') }))
      .filter((c) => c.dropped.length > 0)
    expect(conflicts).toEqual([])
  })
})
