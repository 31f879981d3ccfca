/** Query keys of the subscribers feature (list, webhooks, email tool); all start with 'subscribers'. */
export const subscriberKeys = {
  all: ['subscribers'] as const,
  list: (campaignId: string, search: string, page: number) =>
    [...subscriberKeys.all, 'list', campaignId, search, page] as const,
  count: (campaignId: string, search: string) => [...subscriberKeys.all, 'count', campaignId, search] as const,
  totals: (campaignId: string) => [...subscriberKeys.all, 'totals', campaignId] as const,
  endpoints: () => [...subscriberKeys.all, 'webhook-endpoints'] as const,
  deliveries: (endpointId: string) => [...subscriberKeys.all, 'webhook-deliveries', endpointId] as const,
  espConnection: (campaignId: string) => [...subscriberKeys.all, 'esp-connection', campaignId] as const,
  espDeliveries: (subscriptionIds: string[]) => [...subscriberKeys.all, 'esp-deliveries', ...subscriptionIds] as const,
}
