/**
 * The email domains of one source's confirmed readers over the last 30 days (admin_source_domains, admins only):
 * the evidence behind the one-domain limit, computed by the database. Domains only, never an address.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { adminQueryRoot } from '@/lib/admin-query-root'

export type SourceDomain = {
  domain: string
  webmail: boolean
  confirmed: number
  paid: number
  overLimit: number
  lastSeen: string
}

export const SOURCE_DOMAIN_DAYS = 30

export async function getSourceDomains(sourceId: string): Promise<SourceDomain[]> {
  const { data, error } = await supabase.rpc(
    'admin_source_domains',
    { p_source_id: sourceId, p_days: SOURCE_DOMAIN_DAYS },
    { get: true },
  )
  if (error) throw error
  return (data ?? []).map((row) => ({
    domain: row.domain,
    webmail: row.freemail,
    confirmed: row.confirmed,
    paid: row.counted,
    overLimit: row.domain_limited,
    lastSeen: row.last_seen,
  }))
}

export const sourceDomainsQueryOptions = (sourceId: string) =>
  queryOptions({
    queryKey: [...adminQueryRoot, 'source-domains', sourceId],
    queryFn: () => getSourceDomains(sourceId),
  })

export const useSourceDomainsQuery = (sourceId: string) => useQuery(sourceDomainsQueryOptions(sourceId))
