/**
 * Signs this account out everywhere except here, after saying truthfully what that means: the other sessions end
 * at once for sign-in, money and admin tools (the database checks the session still exists), while a page another
 * device already has open can read until its access token expires (at most an hour).
 */
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { useOtherSessionsSignOutMutation } from '../api/other-sessions-sign-out-mutation'

export function OtherSessions() {
  const [open, setOpen] = useState(false)
  const signOut = useOtherSessionsSignOutMutation()
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground">
        Lost a phone or used a shared computer? End every other session of your account; this browser stays signed in.
        Changing your password does the same.
      </p>
      <Button variant="outline" className="self-start" onClick={() => setOpen(true)}>
        Sign out of other devices
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Sign out of every other device?</DialogTitle>
            <DialogDescription>
              Other browsers and devices will have to log in again. You stay signed in here.
            </DialogDescription>
          </DialogHeader>
          <ul className="list-disc space-y-1 pl-5 text-sm" data-testid="sign-out-effects">
            <li>
              At once, a stolen or forgotten session can no longer move money (such as requesting a payout), use admin
              tools, renew itself or change your account.
            </li>
            <li>
              Pages already open on another device may still show your data for up to an hour, until their sign-in token
              expires.
            </li>
          </ul>
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button
              disabled={signOut.isPending}
              onClick={() => signOut.mutate(undefined, { onSuccess: () => setOpen(false) })}
            >
              Sign out other devices
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  )
}
