/**
 * The local ESP sandbox behind the real gateway, on an ephemeral port, with its own in-memory database
 * (the sandbox needs only its `local_esp` tables, not the product's migrations). The other APIs are stubs:
 * these tests are about the ESP clients and the sandbox.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Handler } from '../context'
import { openDatabase, type Db } from '../db/database'
import { initdbSnapshot } from '../db/snapshot'
import { createEspHandler, espSandboxUrls } from '../esp/index'
import { createGateway } from '../gateway'
import type { RecordedRequest, SandboxSubscriber } from '../esp/store'

export type EspSandbox = {
  apiUrl: string
  /** ESP_*_API_URL as the backend passes them to the functions. */
  env: Record<string, string>
  requests(provider: string): Promise<RecordedRequest[]>
  subscribers(provider: string): Promise<SandboxSubscriber[]>
  control(what: 'fail' | 'engagement', body: unknown, method?: string): Promise<Response>
  clear(): Promise<void>
  close(): Promise<void>
}

const stub: Handler = async () => ({ status: 404, body: { message: 'not part of this test' } })

export async function startEspSandbox(): Promise<EspSandbox> {
  const db: Db = await openDatabase({ loadDataDir: await initdbSnapshot() })
  const esp = createEspHandler({ db })
  await esp.store
  const server = http.createServer(
    createGateway({
      routes: () => ({ auth: stub, rest: stub, functions: stub, esp }),
      log: (line) => line.includes('failed') && console.error(line),
    }),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const getJson = async <T>(path: string) => (await (await fetch(`${apiUrl}${path}`)).json()) as T
  return {
    apiUrl,
    env: espSandboxUrls(apiUrl),
    // Oldest first, as a test reads a conversation.
    requests: async (provider) =>
      (await getJson<RecordedRequest[]>(`/esp/_api/requests?provider=${provider}`)).reverse(),
    subscribers: (provider) => getJson<SandboxSubscriber[]>(`/esp/_api/subscribers?provider=${provider}`),
    control: (what, body, method = 'POST') =>
      fetch(`${apiUrl}/esp/_control/${what}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    clear: async () => {
      await fetch(`${apiUrl}/esp/_api/requests`, { method: 'DELETE' })
      await fetch(`${apiUrl}/esp/_control/fail`, { method: 'DELETE' })
    },
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await db.close()
    },
  }
}

export const SUBSCRIBER = {
  email: 'Reader.One@Example.com',
  confirmedAt: '2026-11-20T09:15:30.123Z',
  ip: '203.0.113.7',
  sourceName: 'The Morning Fold',
  campaignName: 'Winter launch',
}
