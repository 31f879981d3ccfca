/**
 * axe-core on the page in front of the test: the same engine, rules and tags as `new AxeBuilder({ page }).analyze()`,
 * without what AxeBuilder adds around it for pages with frames. AxeBuilder evaluates axe's 550 KB source in the page
 * twice per call and merges its partial results in a new blank tab, with that source once more: about half of the
 * browser CPU an analysis cost (0.95 → 0.3 CPU-seconds per page measured on four pages of the phone walk, the same
 * rules passed and failed). Here axe is injected once per document (a walk through the app's routes keeps it) and
 * `axe.run` judges the document. A page with frames still goes through AxeBuilder, which reaches into each frame.
 *
 * The page loads axe as a script from the test build of the app (e2e/serve.ts puts axe-core's minified build there),
 * rather than being sent `axe.source`: that is the unminified 1.3 MB build, which every injection carried through
 * the test worker, the browser process and the DevTools pipe into the page and compiled there anew. The same axe-core,
 * minified (580 KB); a context's later loads take it from the context's cache (e2e/serve.ts serves it from memory,
 * cached for good).
 *
 * The suites judge violations only, so axe is asked for those (`resultTypes`: the passes, incomplete and
 * inapplicable groups keep one node each instead of every node on the page) and only they cross back to the test:
 * the same rules run on the same nodes, and a violation is reported with every node it found.
 */
import AxeBuilder from '@axe-core/playwright'
import type axe from 'axe-core'
import type { Result, RunOptions } from 'axe-core'
import { expect, type Page } from '@playwright/test'
import { E2E } from '../ports'

/** The four WCAG 2.0/2.1 A and AA tag sets the layout walks judge pages by. */
export const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

export async function axeViolations(page: Page, tags?: string[]): Promise<Result[]> {
  const options: RunOptions = {
    resultTypes: ['violations'],
    ...(tags ? { runOnly: { type: 'tag', values: tags } } : {}),
  }
  if (page.frames().length > 1) return (await new AxeBuilder({ page }).options(options).analyze()).violations
  if (!(await page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object')))
    await page.addScriptTag({ url: `${E2E.appUrl}/${E2E.axeScript}` })
  return page.evaluate(async (values) => {
    const engine = (window as unknown as { axe: typeof axe }).axe
    // color-contrast is nearly all of an analysis (0.31 of 0.32 s on the wallet page), and most of that is axe turning
    // the same few computed colours into sRGB again and again through colorjs (1,910 parses of 14 strings on the wallet
    // page, per run). Each string's parse is kept for the document: the same channels set on the colour through the
    // same setters, so every rule sees exactly the colours it computed before (the violations found are identical:
    // compared on four pages). A string that fails to parse is never kept, so it fails (and is reported) as before.
    // Measured in the page: 206 → 129, 239 → 161, 300 → 170 and 87 → 65 ms per analysis (wallet, analytics, /, /help).
    type Parsing = { parseString(text: string): unknown; r: number; g: number; b: number; alpha: number }
    const color = (engine.commons as unknown as { color?: { Color?: { prototype: Parsing } } }).color?.Color?.prototype
    if (color && !Object.prototype.hasOwnProperty.call(color, 'e2eParsed')) {
      const parse = color.parseString
      const parsed = new Map<string, [number, number, number, number]>()
      Object.defineProperty(color, 'e2eParsed', { value: parsed })
      color.parseString = function (this: Parsing, text: string) {
        const known = parsed.get(text)
        if (known) {
          ;[this.r, this.g, this.b, this.alpha] = known
          return this
        }
        parse.call(this, text)
        parsed.set(text, [this.r, this.g, this.b, this.alpha])
        return this
      }
    }
    return (await engine.run(document, values)).violations
  }, options)
}

/** Serious and critical violations as `rule: the nodes' selectors`, one string each. */
export async function seriousViolations(page: Page, tags?: string[]): Promise<string[]> {
  return (await axeViolations(page, tags))
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

/**
 * No serious or critical violation on the page, judged at rest: the pointer is moved away first, so a button left
 * hovered by the last click is measured in its own colours, not its hover colour.
 */
export async function expectNoSeriousA11yViolations(page: Page, tags?: string[]) {
  await page.mouse.move(0, 0)
  expect(await seriousViolations(page, tags)).toEqual([])
}
