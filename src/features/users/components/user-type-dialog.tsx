/** Choose a new type for a user and say why (admin_set_user_type writes it to the audit log). */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { toast } from '@/lib/toast'
import { Label } from '@/components/ui/label'
import { USER_TYPES, useUserTypeMutation, userTypeSchema, type UserTypeValues } from '../api/user-type-mutation'
import type { AdminUser } from '../api/users-query'
import { ReasonDialog } from '@/components/reason-dialog'

export function UserTypeDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const form = useForm<UserTypeValues>({
    resolver: zodResolver(userTypeSchema),
    defaultValues: { userType: USER_TYPES.find((t) => t === user.user_type) ?? 'advertiser' },
  })
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
      // ReasonDialog checks the reason; the type is this form's field.
      onConfirm={(reason) =>
        void form.handleSubmit(({ userType }) => mutation.mutate({ userId: user.id, userType, reason }))()
      }
    >
      <div className="grid gap-1.5">
        <Label htmlFor="user-type">User type</Label>
        <select
          id="user-type"
          {...form.register('userType')}
          className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          {USER_TYPES.map((t) => (
            <option key={t} value={t}>
              {t[0].toUpperCase() + t.slice(1)}
            </option>
          ))}
        </select>
      </div>
    </ReasonDialog>
  )
}
