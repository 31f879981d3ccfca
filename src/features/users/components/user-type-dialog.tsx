/** Choose a new type for a user and say why (admin_set_user_type writes it to the audit log). */
import { useState } from 'react'
import { toast } from '@/lib/toast'
import { Label } from '@/components/ui/label'
import { useUserTypeMutation, type UserTypeVariables } from '../api/user-type-mutation'
import type { AdminUser } from '../api/users-query'
import { ReasonDialog } from '@/components/reason-dialog'

const types: UserTypeVariables['userType'][] = ['advertiser', 'publisher', 'admin']

export function UserTypeDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const [userType, setUserType] = useState<UserTypeVariables['userType']>(
    types.find((t) => t === user.user_type) ?? 'advertiser',
  )
  const mutation = useUserTypeMutation({
    onSuccess: (vars) => {
      toast.success(`${user.email ?? 'User'} is now ${vars.userType === 'admin' ? 'an' : 'a'} ${vars.userType}`)
      onClose()
    },
  })
  return (
    <ReasonDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Change the type of ${user.email ?? user.full_name ?? 'this user'}`}
      description="The type decides which dashboard the user gets. The change and its reason are kept in the audit log."
      confirmLabel="Change type"
      reasonRequired
      pending={mutation.isPending}
      onConfirm={(reason) => mutation.mutate({ userId: user.id, userType, reason })}
    >
      <div className="grid gap-1.5">
        <Label htmlFor="user-type">User type</Label>
        <select
          id="user-type"
          value={userType}
          onChange={(e) => setUserType(e.target.value as UserTypeVariables['userType'])}
          className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          {types.map((t) => (
            <option key={t} value={t}>
              {t[0].toUpperCase() + t.slice(1)}
            </option>
          ))}
        </select>
      </div>
    </ReasonDialog>
  )
}
