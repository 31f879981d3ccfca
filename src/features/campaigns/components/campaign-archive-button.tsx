/** Archive, after confirmation: the newsletter leaves the list, history stays (never deleted: it is evidence). */
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
import { useCampaignArchiveMutation } from '../api/campaign-archive-mutation'

export function CampaignArchiveButton({ campaignId, name }: { campaignId: string; name: string }) {
  const [open, setOpen] = useState(false)
  const archive = useCampaignArchiveMutation({ onSuccess: () => setOpen(false) })
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        Archive newsletter
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Archive “{name}”?</DialogTitle>
            <DialogDescription>
              It stops accepting subscribers now. Subscriptions already reserved are honoured; its figures, subscribers
              and ledger stay.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Keep it
            </Button>
            <Button disabled={archive.isPending} onClick={() => archive.mutate(campaignId)}>
              Archive
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  )
}
