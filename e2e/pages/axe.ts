/**
 * axe-core on the page in front of the test: the same engine, rules and tags as `new AxeBuilder({ page }).analyze()`,
 * without what AxeBuilder adds around it for pages with frames. AxeBuilder evaluates axe's 550 KB source in the page
 * twice per call and merges its partial results in a new blank tab, with that source once more: about half of the
 * browser CPU an analysis cost (0.95 → 0.3 CPU-seconds per page measured on four pages of the phone walk, the same
 * rules passed and failed). Here axe is injected once per document (a walk through the app's routes keeps it) and
 * `axe.run` judges the document. A page with frames still goes through AxeBuilder, which reaches into each frame.
 */
import AxeBuilder from '@axe-core/playwright'
import axe, { type AxeResults } from 'axe-core'
import type { Page } from '@playwright/test'

export async function analyzeAxe(page: Page, tags?: string[]): Promise<AxeResults> {
  if (page.frames().length > 1) {
    const builder = new AxeBuilder({ page })
    return (tags ? builder.withTags(tags) : builder).analyze()
  }
  if (!(await page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object')))
    await page.evaluate(axe.source)
  return page.evaluate(
    (values) =>
      (window as unknown as { axe: typeof axe }).axe.run(document, values ? { runOnly: { type: 'tag', values } } : {}),
    tags,
  )
}
