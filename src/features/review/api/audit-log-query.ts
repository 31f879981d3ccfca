/** The audit log with names (admin_audit_log), newest first, one page at a time with the total. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { reviewKeys } from '../keys'

export const AUDIT_LOG_PAGE_SIZE = 25

export type AuditLogVariables = { page: number; subjectType?: string }

export async function getAuditLog({ page, subjectType }: AuditLogVariables) {
  const { data, error } = await supabase.rpc(
    'admin_audit_log',
    {
      p_limit: AUDIT_LOG_PAGE_SIZE,
      p_offset: page * AUDIT_LOG_PAGE_SIZE,
      p_subject_type: subjectType || undefined,
    },
    { get: true },
  )
  if (error) throw error
  const rows = data ?? []
  return { rows, total: rows.length > 0 ? Number(rows[0]!.total_count) : 0 }
}

export type AuditEvent = Awaited<ReturnType<typeof getAuditLog>>['rows'][number]

export const auditLogQueryOptions = (vars: AuditLogVariables) =>
  queryOptions({
    queryKey: [...reviewKeys.auditLog(), vars],
    queryFn: () => getAuditLog(vars),
    placeholderData: keepPreviousData,
  })

export const useAuditLogQuery = (vars: AuditLogVariables) => useQuery(auditLogQueryOptions(vars))
