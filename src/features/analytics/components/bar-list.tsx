/** Horizontal CSS bars with the number written beside each: readable without the bars, no chart library. */
type BarListProps = { title: string; items: { label: string; value: number }[]; format?: (value: number) => string }

export function BarList({ title, items, format = String }: BarListProps) {
  const max = Math.max(1, ...items.map((item) => item.value))
  return (
    <figure className="space-y-2">
      <figcaption className="text-sm font-medium">{title}</figcaption>
      <ul className="space-y-1.5">
        {items.map((item) => (
          <li key={item.label} className="grid grid-cols-[minmax(6rem,10rem)_1fr_auto] items-center gap-2 text-sm">
            <span className="truncate" title={item.label}>
              {item.label}
            </span>
            <span className="h-3 rounded bg-muted" aria-hidden="true">
              <span className="block h-3 rounded bg-primary" style={{ width: `${(item.value / max) * 100}%` }} />
            </span>
            <span className="tabular-nums">{format(item.value)}</span>
          </li>
        ))}
      </ul>
    </figure>
  )
}
