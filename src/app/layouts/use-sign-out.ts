/** Sign-out with the SPEC §8 toasts, then the login page. */
import { useNavigate } from 'react-router-dom'
import { toast } from '@/lib/toast'
import { paths } from '@/config/paths'
import { useSignOutMutation } from '@/features/auth/api/sign-out-mutation'

export function useSignOut() {
  const navigate = useNavigate()
  const mutation = useSignOutMutation()
  const signOut = () =>
    mutation.mutate(undefined, {
      onSuccess: () => {
        toast.success('Logged out', { description: 'See you again soon!' })
        navigate(paths.login, { replace: true })
      },
      onError: (error) => {
        console.error('Logout failed', error)
        toast.error('Logout failed', { description: 'Something went wrong. Please try again.' })
      },
    })
  return { signOut, isPending: mutation.isPending }
}
