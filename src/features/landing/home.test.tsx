import { afterEach, describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { toast } from 'sonner'
import { screen, within } from '@testing-library/react'
import { restUrl, server } from '../../testing/msw-server'
import { renderRoute } from '../../testing/render-route'

afterEach(() => toast.dismiss())

describe('landing page', () => {
  it('explains both sides and magic links, and shows sources and newsletters read from the database', async () => {
    let sourceQuery: URLSearchParams | null = null
    let campaignQuery: URLSearchParams | null = null
    server.use(
      http.get(restUrl('audience_sources'), ({ request }) => {
        sourceQuery = new URL(request.url).searchParams
        return HttpResponse.json([
          { id: 's1', name: 'Frontend Weekly on X', category: 'technology', platform: 'x', image_url: null },
          {
            id: 's2',
            name: 'Plant Parents',
            category: null,
            platform: 'newsletter',
            image_url: '/seed/source-newsletter.svg',
          },
        ])
      }),
      http.get(restUrl('campaigns'), ({ request }) => {
        campaignQuery = new URL(request.url).searchParams
        return HttpResponse.json([
          {
            id: 'c1',
            name: 'Morning Moon',
            description: 'Astronomy before breakfast',
            category: 'science',
            image_url: null,
          },
        ])
      }),
    )
    renderRoute('/')
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Grow your newsletter')
    expect(screen.getByRole('heading', { name: /For advertisers/ })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: /For influencers/ })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'How magic links work' })).toBeInTheDocument()

    const sources = await screen.findByRole('list', { name: 'verified audience sources' })
    expect(within(sources).getByText('Frontend Weekly on X')).toBeInTheDocument()
    expect(within(sources).getByText('X · Technology')).toBeInTheDocument()
    expect(within(sources).getByText('Newsletter · Other')).toBeInTheDocument()
    const newsletters = await screen.findByRole('list', { name: 'active newsletters' })
    expect(within(newsletters).getByRole('link', { name: /Morning Moon/ })).toHaveAttribute('href', '/newsletters/c1')

    expect(sourceQuery!.get('status')).toBe('in.(approved,verified,live)')
    expect(sourceQuery!.get('order')).toBe('created_at.desc')
    expect(campaignQuery!.get('status')).toBe('eq.active')
  })

  it('still explains the product when the examples cannot be loaded', async () => {
    server.use(
      http.get(restUrl('audience_sources'), () =>
        HttpResponse.json({ message: 'down', code: 'XX000' }, { status: 500 }),
      ),
      http.get(restUrl('campaigns'), () => HttpResponse.json([])),
    )
    renderRoute('/')
    expect(await screen.findByText('No newsletters are running yet. Be the first.')).toBeInTheDocument()
    expect(await screen.findByText('Could not load verified audience sources right now.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Earn from my audience' })).toHaveAttribute(
      'href',
      '/register?role=publisher',
    )
  })
})

describe('content pages', () => {
  it.each([
    ['/help', 'Help Center', 'For subscribers'],
    ['/terms', 'Terms of Service', '2. Credits and payments'],
    ['/privacy', 'Privacy Policy', 'How long we keep it'],
    ['/about', 'About Growletter', 'Numbers you can explain'],
    ['/cookies', 'Cookie Policy', 'What we store'],
    ['/gdpr', 'GDPR Compliance', 'Your rights'],
  ])('%s is a readable page titled %s', async (path, title, section) => {
    renderRoute(path)
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 2, name: section })).toBeInTheDocument()
  })

  it('says raw IP addresses are kept 30 days', async () => {
    renderRoute('/privacy')
    expect(await screen.findByText(/Raw IP addresses: 30 days/)).toBeInTheDocument()
  })
})
