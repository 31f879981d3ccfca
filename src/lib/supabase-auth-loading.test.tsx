import { describe, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { render, screen } from '@testing-library/react'
import { SessionProvider, useSession } from '@/lib/session'
import { startAuthIfNeeded, supabase } from '@/lib/supabase'
import { restUrl, server } from '../testing/msw-server'
import { storeTestSession } from '../testing/render-route'

/** Signed out, requests carry the publishable key as the token, as supabase-js sends it. */
const PUBLISHABLE = `Bearer ${import.meta.env.VITE_SUPABASE_PUBLISHABLE_KEY as string}`

function captureAuthorization() {
  const seen: (string | null)[] = []
  server.use(
    http.get(restUrl('profiles'), ({ request }) => {
      seen.push(request.headers.get('Authorization'))
      return HttpResponse.json([])
    }),
  )
  return seen
}

function SessionProbe() {
  const { isLoading, user } = useSession()
  return <p>{isLoading ? 'loading' : user ? `signed in as ${user.email}` : 'signed out'}</p>
}

// One module instance for the whole file: the order of these tests is the order of a visit.
describe('auth-js on demand', () => {
  it('a visitor with no stored session is signed out at once, and data requests use the publishable key without auth-js', async () => {
    render(
      <SessionProvider>
        <SessionProbe />
      </SessionProvider>,
    )
    // The very first render already knows: no spinner waiting for an auth client.
    expect(screen.getByText('signed out')).toBeInTheDocument()
    const seen = captureAuthorization()
    await supabase.from('profiles').select('id')
    expect(seen).toEqual([PUBLISHABLE])
    expect(startAuthIfNeeded()).toBe(false)
  })

  it('a stored session loads auth-js and its token goes with data requests', async () => {
    const session = storeTestSession({ id: 'user-1', email: 'pat@example.com' })
    const seen = captureAuthorization()
    render(
      <SessionProvider>
        <SessionProbe />
      </SessionProvider>,
    )
    expect(screen.getByText('loading')).toBeInTheDocument()
    expect(await screen.findByText('signed in as pat@example.com')).toBeInTheDocument()
    await supabase.from('profiles').select('id')
    expect(seen.at(-1)).toBe(`Bearer ${session.access_token}`)
    expect(startAuthIfNeeded()).toBe(true)
  })
})
