/** Signs this account out everywhere except here, after saying what that means. */
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
