/** Query keys of the publisher's offers and unpaid readers; every key starts with 'offers'. */
export const offerKeys = {
  all: ['offers'] as const,
  list: (userId: string) => [...offerKeys.all, 'list', userId] as const,
  partnerships: (userId: string) => [...offerKeys.all, 'partnerships', userId] as const,
  unpaidReaders: (userId: string, page: number) => [...offerKeys.all, 'unpaid-readers', userId, page] as const,
}
