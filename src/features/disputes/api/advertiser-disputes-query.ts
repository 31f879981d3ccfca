/**
 * The signed-in advertiser's disputes (row-level security keeps them to their own), newest first, with the
 * publisher's answer and its deadline, and which readers each is about (the advertiser may read their confirmed
 * subscribers' addresses). Publishers read theirs through publisher_disputes.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { disputeKeys } from '../keys'

export async function getMyDisputes() {
  const { data, error } = await supabase
    .from('disputes')
    .select(
      'id, kind, reason, status, decision_note, refunded, refunded_subscribers, created_at, decided_at, answer_due_at, answer, answer_links, answered_at, source:audience_sources(name), readers:dispute_subscriptions(subscription_id, refunded, subscriber:newsletter_subscriptions(email))',
    )
    .order('created_at', { ascending: false })
    .limit(50)
  if (error) throw error
  return data ?? []
}

export type MyDispute = Awaited<ReturnType<typeof getMyDisputes>>[number]

export const myDisputesQueryOptions = () => queryOptions({ queryKey: disputeKeys.mine(), queryFn: getMyDisputes })

export const useMyDisputesQuery = () => useQuery(myDisputesQueryOptions())
