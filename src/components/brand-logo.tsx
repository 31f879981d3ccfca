import { Link } from 'react-router-dom'
import { SproutIcon } from 'lucide-react'
import { brand } from '@/config/brand'
import { paths } from '@/config/paths'

/** The brand mark; always leads home (SPEC §2). */
export function BrandLogo() {
  return (
    <Link
      to={paths.home}
      className="flex items-center gap-2 rounded-md text-lg font-bold tracking-tight focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
        <SproutIcon className="size-5" aria-hidden="true" />
      </span>
      <span>{brand.name}</span>
    </Link>
  )
}
