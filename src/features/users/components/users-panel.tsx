/** Users: search by email or name, page through (newest first), and change a user's type with a reason. */
import { useMemo, useState } from 'react'
import { Link } from 'react-router-dom'
import { paths } from '@/config/paths'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Skeleton } from '@/components/ui/skeleton'
import { DataTable, dataTableColumns } from '@/components/data-table'
import { Pager } from '@/components/pager'
import { QueryError } from '@/components/query-error'
import { formatDateTime } from '@/lib/format'
import { userTypeWord } from '@/lib/vocabulary'
import {
  USERS_PAGE_SIZE,
  userSearchSchema,
  useUsersQuery,
  type AdminUser,
  type UserSearchInput,
  type UserSearchValues,
} from '../api/users-query'
import { UserTypeDialog } from './user-type-dialog'

const col = dataTableColumns<AdminUser>()

export function UsersPanel() {
  // The search that ran (what the list shows), apart from the text being typed in the form.
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(0)
  const [editing, setEditing] = useState<AdminUser | null>(null)
  const users = useUsersQuery({ search, page })
  const form = useForm<UserSearchInput, unknown, UserSearchValues>({
    resolver: zodResolver(userSearchSchema),
    defaultValues: { search: '' },
  })

  const onSearch = form.handleSubmit((values) => {
    setSearch(values.search)
    setPage(0)
  })

  // The list comes from admin_list_users newest first, a page at a time; its order is the database's.
  const columns = useMemo(
    () => [
      col.accessor('email', {
        header: 'Email',
        enableSorting: false,
        meta: { primary: true },
        cell: (c) => (
          <Link className="break-words underline" to={paths.admin.user(c.row.original.id)}>
            {c.getValue() ?? c.row.original.full_name ?? 'User without an email'}
          </Link>
        ),
      }),
      col.accessor('full_name', { header: 'Name', enableSorting: false, cell: (c) => c.getValue() || 'No name set' }),
      col.accessor('user_type', {
        header: 'Type',
        enableSorting: false,
        cell: (c) => {
          const word = userTypeWord(c.getValue())
          return <Badge variant={word.tone}>{word.label}</Badge>
        },
      }),
      col.accessor('created_at', {
        header: 'Joined',
        enableSorting: false,
        cell: (c) => <span className="whitespace-nowrap">{formatDateTime(c.getValue())}</span>,
      }),
      col.display({
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        meta: { align: 'right', actions: true },
        cell: ({ row }) => (
          <div className="flex flex-wrap justify-end gap-2">
            {/* The user's page (money, sources, suspend) as a button, not only the address as a link (issue 38). */}
            <Button asChild size="sm">
              <Link to={paths.admin.user(row.original.id)} title="The user's page: money, sources, suspend">
                Open user
              </Link>
            </Button>
            <Button
              size="sm"
              variant="outline"
              aria-label={`Change type of ${row.original.email ?? row.original.full_name ?? row.original.id}`}
              onClick={() => setEditing(row.original)}
            >
              Change type
            </Button>
          </div>
        ),
      }),
    ],
    [],
  )

  return (
    <div className="space-y-4">
      <form role="search" onSubmit={(event) => void onSearch(event)} className="flex max-w-lg items-end gap-2">
        <div className="grid min-w-0 flex-1 gap-1.5">
          <Label htmlFor="user-search">Search by email or name</Label>
          <Input id="user-search" type="search" {...form.register('search')} />
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
        <DataTable
          columns={columns}
          data={users.data.rows}
          caption="Users, newest first"
          getRowId={(row) => row.id}
          rowTestId="user-row"
          footer={
            <Pager
              label="User pages"
              page={page}
              pageSize={USERS_PAGE_SIZE}
              hasMore={users.data.hasMore}
              shown={users.data.rows.length}
              itemsLabel="Users"
              onPageChange={setPage}
            />
          }
        />
      )}
      {editing && <UserTypeDialog user={editing} onClose={() => setEditing(null)} />}
    </div>
  )
}
