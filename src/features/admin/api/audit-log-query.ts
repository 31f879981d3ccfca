/** The latest admin decisions (moderation_events), newest first, with who made them. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { adminKeys } from '../keys'

export const AUDIT_LOG_LIMIT = 50

export async function getAuditLog() {
  const { data, error } = await supabase
    .from('moderation_events')
    .select('id, subject_type, subject_id, old_status, new_status, reason, created_at, actor:profiles(full_name)')
    .order('created_at', { ascending: false })
    .limit(AUDIT_LOG_LIMIT)
  if (error) throw error
  return data ?? []
}

export type AuditEvent = Awaited<ReturnType<typeof getAuditLog>>[number]

export const auditLogQueryOptions = () => queryOptions({ queryKey: adminKeys.auditLog(), queryFn: getAuditLog })

export const useAuditLogQuery = () => useQuery(auditLogQueryOptions())
