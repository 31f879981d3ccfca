/**
 * The local Stripe Connect stand-in: Express accounts, their onboarding links and the transfers made to
 * them, in Stripe's object shapes, made from the form-encoded parameters the stripe package sends. Onboarding is
 * finished or rejected on the stand-in's page (page.ts); every change of an account is reported as `account.updated`,
 * every transfer as `transfer.created` and every reversal of one as `transfer.reversed` (deliveries.ts). A transfer to
 * an account whose `transfers` capability is not active (never onboarded, or rejected) is refused with Stripe's error,
 * and no event, as Stripe refuses it: the request fails before anything is made. Transfers are listed as Stripe lists
 * them: newest first, by destination, a page at a time (`limit`, `starting_after`, `ending_before`).
 * The objects' shapes are in stripe-objects.ts, what one stand-in holds in state.ts, the endpoints in accounts.ts and
 * transfers.ts.
 */
import { adopt, createAccount, createAccountLink, finish, linkOf, openLink, reject } from './accounts'
import { accountOf, createState, resume, type ConnectOptions } from './state'
import type { LocalLink } from './stripe-objects'
import { createReversal, createTransfer, getTransfer, listTransfers } from './transfers'

/** The stand-in: one state, and Stripe's endpoints and the onboarding page's steps over it. */
export function createConnect(options: ConnectOptions) {
  const state = createState(options)
  return {
    resume: () => resume(state),
    createAccount: (params: URLSearchParams, key?: string) => createAccount(state, params, key),
    adopt: (id: string, email: string | null) => adopt(state, id, email),
    getAccount: (id: string) => accountOf(state, id),
    createAccountLink: (params: URLSearchParams) => createAccountLink(state, params),
    link: (accountId: string, token: string) => linkOf(state, accountId, token),
    open: (link: LocalLink, session: string | undefined) => openLink(state, link, session),
    finish: (link: LocalLink, who: { ip: string; userAgent: string | null }) => finish(state, link, who),
    reject: (link: LocalLink) => reject(state, link),
    createTransfer: (params: URLSearchParams, key?: string) => createTransfer(state, params, key),
    getTransfer: (id: string) => getTransfer(state, id),
    listTransfers: (query: URLSearchParams) => listTransfers(state, query),
    createReversal: (transferId: string, params: URLSearchParams, key?: string) =>
      createReversal(state, transferId, params, key),
    close: () => state.deliveries.close(),
  }
}

export type Connect = ReturnType<typeof createConnect>
