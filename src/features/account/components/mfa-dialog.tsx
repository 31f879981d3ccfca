/** The account menu's "Two-factor sign-in" dialog; loaded only when opened. */
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { MfaSettings } from './mfa-settings'

export function MfaDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Two-factor sign-in</DialogTitle>
          <DialogDescription>A second step at sign-in keeps your wallet safe even if your password leaks.</DialogDescription>
        </DialogHeader>
        {open ? <MfaSettings /> : null}
      </DialogContent>
    </Dialog>
  )
}
