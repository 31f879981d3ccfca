/**
 * `/embed/{unified_code}`: the offers a publisher's site shows through its snippet (src/embed/room.ts) or embed.js
 * alone (src/embed/loader.ts), in an iframe of the app's origin. One document with this script inlined in its head
 * (scripts/embed-plugin.ts): no React, no router, no Supabase client, no font, so the offers are visible one request
 * after the document arrives.
 *
 * - `embed_offers`, read by GET with the key in the URL (a CORS simple request: no preflight round trip), answers
 *   the source and its offers (each with its own unticked box). The document's first script asks it
 *   (./offers-request.ts), before the styles and this script are parsed.
 * - `embed_load` counts the load once the offers are on screen, off the path to the first render.
 * - The reader's first submit records the click (`track_audience_source_click`, channel 'embed', once per frame),
 *   then `subscribe` with the source, the click and its signed token: the subscriber is counted like a magic-link
 *   subscriber, and the double opt-in email decides.
 * - Validation and errors in sentences, announced (role=alert); labels on every control; keyboard only works.
 * - The document carries the form (./frame-markup.ts), painted while the offers are on their way; rendering them
 *   fills the list, names the source and lets Subscribe work.
 * - The frame fills its room (frame.css) and adapts inside it. Its content's height goes to the host page
 *   (postMessage), which grows the frame only when the content cannot fit, and never shrinks it below its room.
 */
import { env } from '@/config/env'
import { postRpc, postTrackClick } from '@/features/magic-link/api/track-click-request'
import type { ClickResult } from '@/features/magic-link/api/click-result'
import { subscribeEmail } from '@/features/subscriptions/subscribe-rules'
import { askOffers, embedCode } from './offers-request'

type Offer = { id: string; name: string; description: string | null }
type Loaded = {
  status: 'valid' | 'inactive' | 'not_found'
  source: { id: string; name: string } | null
  offers: Offer[]
}

const code = embedCode()
const apiUrl = env.VITE_SUPABASE_URL.replace(/\/+$/, '')
/** Asked by the document's first script already (./ask-offers.ts); read as soon as this script runs. */
const offers = code ? load() : null
offers?.catch(() => undefined) // handled where it is awaited, in start()
let root: HTMLElement

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, unknown> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node: HTMLElementTagNameMap[K] = Object.assign(document.createElement(tag), props)
  node.append(...children)
  return node
}

function postHeight() {
  // The height is no secret: any host may read it.
  parent.postMessage({ type: 'growletter-embed:height', height: document.documentElement.scrollHeight }, '*')
}

function show(...nodes: Node[]) {
  root.replaceChildren(...nodes)
  postHeight()
}

function message(text: string) {
  show(el('p', { className: 'notice', role: 'status' }, text))
}

async function load(): Promise<Loaded> {
  const response = await askOffers()
  if (!response.ok) throw new Error(`embed_offers ${response.status}`)
  return (await response.json()) as Loaded
}

/** One load of the embed, counted by the database (its own rules: no bots, not the publisher's preview). */
function countLoad() {
  postRpc('embed_load', { p_code: code }, { keepalive: true }).catch(() => undefined)
}

let click: Promise<ClickResult> | null = null
/** One click per frame: a second submit (another newsletter) is the same visit. */
function recordClick(): Promise<ClickResult> {
  click ??= postTrackClick({
    unifiedCode: code,
    deviceInfo: { timestamp: new Date().toISOString(), ip: null, country: null, channel: 'embed' },
  }).catch((error: unknown) => {
    click = null
    throw error
  })
  return click
}

async function subscribe(body: Record<string, unknown>): Promise<{ pending: { newsletterName: string }[] }> {
  const response = await fetch(`${apiUrl}/functions/v1/subscribe`, {
    method: 'POST',
    headers: {
      apikey: env.supabaseKey,
      Authorization: `Bearer ${env.supabaseKey}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  })
  const answer = (await response.json().catch(() => null)) as {
    success?: boolean
    error?: unknown
    message?: unknown
    pending?: { newsletterName: string }[]
  } | null
  if (!response.ok || answer?.success !== true) {
    const text =
      typeof answer?.error === 'string' ? answer.error : typeof answer?.message === 'string' ? answer.message : null
    throw new Error(text ?? 'We could not subscribe you right now. Please try again in a few minutes.')
  }
  return { pending: answer.pending ?? [] }
}

function render({ source, offers }: Loaded & { source: { id: string; name: string } }) {
  const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
  const form = root.querySelector('form')!
  const list = root.querySelector('ul')!
  const choiceError = byId('choice-error')
  const email = byId<HTMLInputElement>('embed-email')
  const emailError = byId('email-error')
  const button = form.querySelector('button')!
  const done = root.querySelector<HTMLElement>('.done')!
  const boxes = offers.map((offer, i) => {
    const box = el('input', { type: 'checkbox', id: `offer-${i}`, value: offer.id, name: 'newsletter' })
    const label = el('label', { htmlFor: `offer-${i}` }, el('strong', {}, offer.name))
    if (offer.description) label.append(el('span', {}, offer.description))
    return { box, item: el('li', {}, box, label), offer }
  })

  const setError = (node: HTMLElement, text: string | null, field?: HTMLInputElement) => {
    node.textContent = text ?? ''
    field?.setAttribute('aria-invalid', text ? 'true' : 'false')
    postHeight()
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const chosen = boxes.filter((b) => b.box.checked)
    const address = email.value.trim()
    const emailProblem = subscribeEmail(address)
    setError(choiceError, chosen.length ? null : 'Choose at least one newsletter.')
    setError(emailError, emailProblem, email)
    if (!chosen.length) return boxes[0]?.box.focus()
    if (emailProblem) return email.focus()
    button.disabled = true
    button.textContent = 'Subscribing…'
    done.textContent = ''
    void (async () => {
      try {
        // Without a counted click the reader still subscribes (unpaid, as a link without a click).
        const c = await recordClick().catch(() => null)
        const result = await subscribe({
          email: address,
          campaignIds: chosen.map((b) => b.offer.id),
          audienceSourceId: source.id,
          ...(c?.clickId ? { clickId: c.clickId } : {}),
          ...(c?.clickToken ? { clickToken: c.clickToken } : {}),
        })
        const names = result.pending.map((p) => p.newsletterName).join(', ')
        done.textContent = `Check your inbox: we sent one email to ${address} about ${names}. Confirm each newsletter with its link.`
        chosen.forEach((b) => (b.box.checked = false))
        email.value = ''
      } catch (error) {
        setError(
          emailError,
          error instanceof TypeError
            ? 'We could not reach Growletter. Check your connection and try again.'
            : (error as Error).message,
          email,
        )
      } finally {
        button.disabled = false
        button.textContent = 'Subscribe'
        postHeight()
      }
    })()
  })

  byId('embed-title').textContent = `Newsletters ${source.name} recommends`
  list.replaceChildren(...boxes.map((b) => b.item))
  button.disabled = false
  postHeight()
  root.dataset.ready = 'true'
  // For bench/embed.ts: the offers in the document, then the animation frame that shows them.
  performance.mark('growletter-embed:rendered')
  requestAnimationFrame(() => performance.mark('growletter-embed:visible'))
}

async function start() {
  root = document.getElementById('embed')!
  new ResizeObserver(postHeight).observe(root)
  addEventListener('resize', postHeight)
  addEventListener('message', (event: MessageEvent) => {
    if (event.source === parent && event.data === 'growletter-embed:measure') postHeight()
  })
  postHeight()
  if (!offers) return message('This embed has no source. Copy the snippet again from your Growletter dashboard.')
  try {
    const loaded = await offers
    performance.mark('growletter-embed:answered')
    if (loaded.status !== 'valid' || !loaded.source) {
      return message('These recommendations are not available right now.')
    }
    if (loaded.offers.length === 0) message('No newsletters are open for subscribers right now.')
    else render({ ...loaded, source: loaded.source })
    countLoad()
  } catch {
    message('We could not load the newsletters. Please reload the page to try again.')
  }
}

// The script runs in the document's head: the offers are already asked for; the form waits for the body.
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => void start())
else void start()
