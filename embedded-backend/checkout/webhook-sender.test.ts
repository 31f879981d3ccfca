// The local Stripe stand-ins' delivery loop (checkout/webhook-sender.ts): closing it waits for an attempt in flight
// to save its outcome, so nothing it writes lands after it closed (a restarted stand-in had delivered an event that
// the old one then marked "retry in a minute").
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createWebhookSender, type OwedEvent } from './webhook-sender'

let server: http.Server | undefined
afterEach(
  () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve()
      server.close(() => resolve())
      server.closeAllConnections()
    }),
)

describe('the stand-ins’ webhook sender', () => {
  it('close waits for the attempt in flight to save its outcome', async () => {
    let answer: (() => void) | undefined
    server = http.createServer((req, res) => {
      req.resume()
      req.on('end', () => (answer = () => res.writeHead(500).end('{}')))
    })
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    const saved: OwedEvent[] = []
    const sender = createWebhookSender<OwedEvent>({
      webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/functions/v1/connect-webhook`,
      webhookSecret: 'whsec_local_test',
      retryDelaysMs: [60_000],
      log: () => undefined,
      save: async (delivery) => void saved.push(delivery),
      label: (delivery) => delivery.eventId,
    })
    const owed: OwedEvent = {
      eventId: 'evt_in_flight',
      type: 'account.updated',
      payload: '{"id":"evt_in_flight","object":"event"}',
      attempts: 0,
      nextAttemptAt: Date.now(),
      state: 'pending',
    }
    void sender.attempt(owed)
    await vi.waitFor(() => expect(answer).toBeDefined(), { timeout: 20_000 })

    let closed = false
    const closing = sender.close().then(() => (closed = true))
    await new Promise((resolve) => setImmediate(resolve))
    // The webhook has not answered yet, so the attempt's outcome is not saved and close is still waiting.
    expect(closed).toBe(false)
    expect(saved).toEqual([])
    answer!()
    await closing
    expect(saved).toEqual([expect.objectContaining({ eventId: 'evt_in_flight', attempts: 1, state: 'pending' })])
  })
})
