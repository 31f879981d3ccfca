/** Users: search by email or name, page through, and change a user's type with a reason. */
import { useState, type FormEvent } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Skeleton } from '@/components/ui/skeleton'
import { USERS_PAGE_SIZE, useUsersQuery, type AdminUser } from '../api/users-query'
import { formatDateTime } from '@/lib/format'
import { QueryError } from '@/components/query-error'
import { UserTypeDialog } from './user-type-dialog'
import { TableScroll } from '@/components/table-scroll'

export function UsersPanel() {
  const [draft, setDraft] = useState('')
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(0)
  const [editing, setEditing] = useState<AdminUser | null>(null)
  const users = useUsersQuery({ search, page })

  const onSearch = (event: FormEvent) => {
    event.preventDefault()
    setSearch(draft)
    setPage(0)
  }

  return (
    <div className="space-y-4">
      <form role="search" onSubmit={onSearch} className="flex max-w-lg items-end gap-2">
        <div className="grid flex-1 gap-1.5">
          <Label htmlFor="user-search">Search by email or name</Label>
          <Input id="user-search" type="search" value={draft} onChange={(e) => setDraft(e.target.value)} />
        </div>
        <Button type="submit">Search</Button>
      </form>
      {users.isPending ? (
        <div role="status" aria-label="Loading users" className="space-y-2">
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
        </div>
      ) : users.isError ? (
        <QueryError title="Could not load users" error={users.error} onRetry={() => void users.refetch()} />
      ) : users.data.rows.length === 0 ? (
        <p className="text-muted-foreground">{search ? `No user matches “${search}”.` : 'No users yet.'}</p>
      ) : (
        <>
          <TableScroll label="Users table">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Users, newest first</caption>
              <thead className="border-b text-muted-foreground">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">Email</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Name</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Type</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Joined</th>
                  <th scope="col" className="py-2 font-medium"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {users.data.rows.map((u) => (
                  <tr key={u.id} className="border-b last:border-0" data-testid="user-row">
                    <td className="py-2 pr-3 break-all">{u.email ?? '—'}</td>
                    <td className="py-2 pr-3">{u.full_name || 'No name set'}</td>
                    <td className="py-2 pr-3">
                      <Badge variant={u.user_type === 'admin' ? 'red' : u.user_type === 'publisher' ? 'yellow' : 'grey'}>{u.user_type}</Badge>
                    </td>
                    <td className="py-2 pr-3 whitespace-nowrap">{formatDateTime(u.created_at)}</td>
                    <td className="py-2 text-right">
                      <Button size="sm" variant="outline" aria-label={`Change type of ${u.email ?? u.full_name ?? u.id}`} onClick={() => setEditing(u)}>
                        Change type
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <nav aria-label="User pages" className="flex items-center justify-between pt-2 text-sm">
            <Button variant="outline" size="sm" disabled={page === 0} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <span aria-live="polite">
              Users {page * USERS_PAGE_SIZE + 1}–{page * USERS_PAGE_SIZE + users.data.rows.length}
            </span>
            <Button variant="outline" size="sm" disabled={!users.data.hasMore} onClick={() => setPage(page + 1)}>
              Next
            </Button>
          </nav>
        </>
      )}
      {editing && <UserTypeDialog user={editing} onClose={() => setEditing(null)} />}
    </div>
  )
}
