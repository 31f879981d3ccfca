/**
 * A small sortable table on @tanstack/react-table: click a header to sort by it (again to reverse). Numeric
 * columns align right. Used for per-source and per-campaign figures until a shared data table replaces it.
 */
import {
  createColumnHelper,
  createSortedRowModel,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  tableFeatures,
  useTable,
  type ColumnDef,
  type RowData,
  type SortingState,
} from '@tanstack/react-table'
import { useState } from 'react'
import { ArrowDownIcon, ArrowUpIcon, ArrowUpDownIcon } from 'lucide-react'
import { TableScroll } from '@/components/table-scroll'

export const sortableFeatures = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, basic: sortFn_basic },
})
/** Column helper for SortableTable's rows; `meta: { numeric: true }` right-aligns a column. */
export const sortableColumns = <T extends RowData>() => createColumnHelper<typeof sortableFeatures, T>()
export type SortableColumn<T extends RowData> = ColumnDef<typeof sortableFeatures, T, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- columns of mixed value types

type Props<T extends RowData> = { label: string; caption: string; data: T[]; columns: SortableColumn<T>[]; initialSort?: SortingState; testId?: string }

export function SortableTable<T extends RowData>({ label, caption, data, columns, initialSort = [], testId }: Props<T>) {
  const [sorting, setSorting] = useState<SortingState>(initialSort)
  const table = useTable({ features: sortableFeatures, columns, data, state: { sorting }, onSortingChange: setSorting })
  return (
    <TableScroll label={label}>
      <table className="w-full text-left text-sm" data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b text-muted-foreground">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted()
                const numeric = (header.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric
                return (
                  <th key={header.id} scope="col" className={`py-2 pr-3 font-medium ${numeric ? 'text-right' : ''}`}
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}>
                    <button type="button" className="inline-flex items-center gap-1 hover:text-foreground" onClick={header.column.getToggleSortingHandler()}>
                      <table.FlexRender header={header} />
                      {sorted === 'asc' ? <ArrowUpIcon className="size-3" aria-hidden /> : sorted === 'desc' ? <ArrowDownIcon className="size-3" aria-hidden /> : <ArrowUpDownIcon className="size-3 opacity-40" aria-hidden />}
                    </button>
                  </th>
                )
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} className="border-b last:border-0">
              {row.getAllCells().map((cell) => {
                const numeric = (cell.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric
                return (
                  <td key={cell.id} className={`py-2 pr-3 ${numeric ? 'text-right tabular-nums whitespace-nowrap' : ''}`}>
                    <table.FlexRender cell={cell} />
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  )
}
