/**
 * The one data table of every dashboard (STYLE "Dashboards", shadcn's data-table pattern on @tanstack/react-table):
 * sortable headers, an optional server-side pager underneath, and on screens under 768 px a list of cards instead
 * of columns, so nothing scrolls sideways on a phone. Sorting is client-side for lists that arrive whole; a
 * paginated list passes `sorting` + `onSortingChange` with `manualSorting` and sorts in its query instead.
 */
import type { ReactNode } from 'react'
import {
  createColumnHelper,
  createSortedRowModel,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  sortFn_datetime,
  sortFn_text,
  tableFeatures,
  useTable,
  type CellData,
  type ColumnDef,
  type OnChangeFn,
  type RowData,
  type SortingState,
  type TableFeatures,
} from '@tanstack/react-table'
import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from 'lucide-react'
import { cn } from '@/lib/utils'
import { useMediaQuery } from '@/lib/use-media-query'

export const dataTableFeatures = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, text: sortFn_text, datetime: sortFn_datetime, basic: sortFn_basic },
})
type Features = typeof dataTableFeatures

declare module '@tanstack/react-table' {
  // How a column shows: aligned right (figures), as the card's title on a phone, or without a label there.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the parameters must match the library's declaration
  interface ColumnMeta<TFeatures extends TableFeatures, TData extends RowData, TValue extends CellData = CellData> {
    align?: 'right'
    /** On a phone the card's heading. */
    primary?: boolean
    /** On a phone shown under the fields without a label (row actions). */
    actions?: boolean
    /** The label on a phone when the header is not plain text. */
    label?: string
  }
}

/** Column helper bound to the table's features: `const col = dataTableColumns<Row>()`. */
export const dataTableColumns = <TData extends RowData>() => createColumnHelper<Features, TData>()

export type DataTableColumn<TData extends RowData> = ColumnDef<Features, TData, never>

type DataTableProps<TData extends RowData> = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- columns of different value types share one list
  columns: ColumnDef<Features, TData, any>[]
  data: TData[]
  /** Names the table for screen readers (a caption) and the card list on phones. */
  caption: string
  getRowId: (row: TData) => string
  rowTestId?: string
  initialSorting?: SortingState
  sorting?: SortingState
  onSortingChange?: OnChangeFn<SortingState>
  manualSorting?: boolean
  /** Under the table: usually the Pager of a server-paginated list. */
  footer?: ReactNode
  className?: string
}

const WIDE = '(min-width: 768px)'

export function DataTable<TData extends RowData>(props: DataTableProps<TData>) {
  const { columns, data, caption, getRowId, rowTestId, footer, className } = props
  const controlled = props.sorting !== undefined
  const table = useTable({
    features: dataTableFeatures,
    columns,
    data,
    getRowId: (row) => getRowId(row),
    manualSorting: props.manualSorting,
    enableSortingRemoval: false,
    initialState: { sorting: props.initialSorting ?? [] },
    ...(controlled ? { state: { sorting: props.sorting }, onSortingChange: props.onSortingChange } : {}),
  })
  const wide = useMediaQuery(WIDE)
  const rows = table.getRowModel().rows

  if (!wide) {
    const headerLabel = (columnId: string) => {
      const column = table.getColumn(columnId)
      const header = column?.columnDef.header
      return column?.columnDef.meta?.label ?? (typeof header === 'string' ? header : columnId)
    }
    return (
      <div className={className}>
        <ul aria-label={caption} className="space-y-3">
          {rows.map((row) => {
            const cells = row.getAllCells()
            const primary = cells.find((cell) => cell.column.columnDef.meta?.primary)
            const actions = cells.filter((cell) => cell.column.columnDef.meta?.actions)
            const fields = cells.filter((cell) => cell !== primary && !cell.column.columnDef.meta?.actions)
            return (
              <li key={row.id} data-testid={rowTestId} className="min-w-0 rounded-lg border bg-card p-3 text-sm">
                {primary ? (
                  <div className="mb-2 font-medium break-words">
                    <table.FlexRender cell={primary} />
                  </div>
                ) : null}
                <dl className="grid gap-1.5">
                  {fields.map((cell) => (
                    <div key={cell.id} className="flex min-w-0 items-baseline justify-between gap-3">
                      <dt className="shrink-0 text-muted-foreground">{headerLabel(cell.column.id)}</dt>
                      <dd className="min-w-0 text-right break-words">
                        <table.FlexRender cell={cell} />
                      </dd>
                    </div>
                  ))}
                </dl>
                {actions.length > 0 ? (
                  <div className="mt-3 flex flex-wrap justify-end gap-2">
                    {actions.map((cell) => (
                      <table.FlexRender key={cell.id} cell={cell} />
                    ))}
                  </div>
                ) : null}
              </li>
            )
          })}
        </ul>
        {footer}
      </div>
    )
  }

  return (
    <div className={className}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b text-muted-foreground">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const meta = header.column.columnDef.meta
                const sorted = header.column.getIsSorted()
                const canSort = header.column.getCanSort()
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                    className={cn('py-2 pr-3 font-medium last:pr-0', meta?.align === 'right' && 'text-right')}
                  >
                    {header.isPlaceholder ? null : canSort ? (
                      <button
                        type="button"
                        onClick={header.column.getToggleSortingHandler()}
                        className={cn(
                          '-mx-1 inline-flex items-center gap-1 rounded px-1 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                          sorted && 'text-foreground',
                        )}
                      >
                        <table.FlexRender header={header} />
                        {sorted === 'asc' ? (
                          <ArrowUpIcon className="size-3.5" aria-hidden="true" />
                        ) : sorted === 'desc' ? (
                          <ArrowDownIcon className="size-3.5" aria-hidden="true" />
                        ) : (
                          <ArrowUpDownIcon className="size-3.5 opacity-50" aria-hidden="true" />
                        )}
                      </button>
                    ) : (
                      <table.FlexRender header={header} />
                    )}
                  </th>
                )
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid={rowTestId} className="border-b last:border-0">
              {row.getAllCells().map((cell) => {
                const meta = cell.column.columnDef.meta
                // The row's name is its header cell, so a screen reader announces it with every figure.
                const Cell = meta?.primary ? 'th' : 'td'
                return (
                  <Cell
                    key={cell.id}
                    scope={meta?.primary ? 'row' : undefined}
                    className={cn(
                      'py-2 pr-3 align-top font-normal break-words last:pr-0',
                      meta?.align === 'right' && 'text-right whitespace-nowrap tabular-nums',
                    )}
                  >
                    <table.FlexRender cell={cell} />
                  </Cell>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {footer}
    </div>
  )
}
