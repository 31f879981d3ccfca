import type { ComponentProps } from 'react'
import type { Badge } from '@/components/ui/badge'

export type BadgeProps = ComponentProps<typeof Badge>
