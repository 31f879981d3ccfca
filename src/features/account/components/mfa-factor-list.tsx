/**
 * Every authenticator on the account with its state, so nothing hides: a verified one protects sign-in; one that
 * is not verified is a setup nobody finished (or someone with the password started) and can be removed at once.
 */
import type { Factor } from '@supabase/supabase-js'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { formatDateTime } from '@/lib/format'

type Props = {
  factors: Factor[]
  /** The factor being set up in this browser right now: shown, but not offered for removal here. */
  enrollingId?: string
  removingId?: string
  onRemove: (factor: Factor) => void
}

const nameOf = (factor: Factor) => factor.friendly_name || 'Authenticator app'

export function MfaFactorList({ factors, enrollingId, removingId, onRemove }: Props) {
  if (factors.length === 0) return null
  const strangers = factors.some((f) => f.status !== 'verified' && f.id !== enrollingId)
  return (
    <div className="flex flex-col gap-2">
      <ul aria-label="Authenticators on your account" className="divide-y rounded-md border">
        {factors.map((factor) => {
          const verified = factor.status === 'verified'
          const enrolling = factor.id === enrollingId
          return (
            <li key={factor.id} className="flex flex-wrap items-center gap-3 p-3" aria-label={nameOf(factor)}>
              <div className="min-w-0 flex-1">
                <p className="font-medium">{nameOf(factor)}</p>
                <p className="text-xs text-muted-foreground">Added {formatDateTime(factor.created_at)}</p>
              </div>
              <Badge variant={verified ? 'green' : 'yellow'}>
                {verified ? 'Verified' : enrolling ? 'Being set up now' : 'Not verified'}
              </Badge>
              {!verified && !enrolling ? (
                <Button
                  size="sm"
                  variant="outline"
                  disabled={removingId === factor.id}
                  aria-label={`Remove ${nameOf(factor)} (not verified)`}
                  onClick={() => onRemove(factor)}
                >
                  Remove
                </Button>
              ) : null}
            </li>
          )
        })}
      </ul>
      {strangers ? (
        <p className="text-sm text-muted-foreground" data-testid="unverified-factor-note">
          An authenticator that is not verified was never finished: it does not protect your sign-in, and it cannot be
          finished without your verified one. If you did not start setting it up, someone may know your password —
          remove it and change your password.
        </p>
      ) : null}
    </div>
  )
}
