/**
 * The Embed page's figures, per source of the signed-in publisher (`publisher_embed_figures`): the embed's loads,
 * its confirmed and paid subscribers, the paid subscribers a click token carried to another browser, and how many
 * newsletters the embed shows now.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'

export type EmbedSourceFigures = {
  sourceId: string
  sourceName: string
  unifiedCode: string
  status: string
  loads: number
  subscribers: number
  paidSubscribers: number
  tokenSubscribers: number
  /** How many newsletters the embed shows now: the room its snippet reserves (src/embed/room.ts). */
  offers: number
}

export async function getEmbedFigures(): Promise<EmbedSourceFigures[]> {
  const { data, error } = await supabase.rpc('publisher_embed_figures', undefined, { get: true })
  if (error) throw new Error(error.message)
  return (data ?? []).map((r) => ({
    sourceId: r.source_id,
    sourceName: r.source_name,
    unifiedCode: r.unified_code,
    status: r.status,
    loads: Number(r.loads),
    subscribers: Number(r.subscribers),
    paidSubscribers: Number(r.paid_subscribers),
    tokenSubscribers: Number(r.token_subscribers),
    offers: Number(r.offers),
  }))
}

export const embedKeys = { figures: (userId: string) => ['embed', 'figures', userId] as const }

export const embedFiguresQueryOptions = (userId: string) =>
  queryOptions({ queryKey: embedKeys.figures(userId), queryFn: getEmbedFigures, enabled: Boolean(userId) })

export const useEmbedFiguresQuery = (userId: string) => useQuery(embedFiguresQueryOptions(userId))
