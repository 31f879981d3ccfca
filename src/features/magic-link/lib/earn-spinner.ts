/**
 * The `/earn` redirect spinner as plain HTML, for the pages that show it before React: `dist/earn.html`
 * (scripts/prerender-plugin.ts writes it in) and src/app/earn-entry.ts (over index.html's content). The same
 * look and text as `<PageSpinner label="Redirecting to newsletters..." />`, with Lucide's loader icon.
 */
export const EARN_SPINNER_HTML =
  '<main id="main"><div id="earn-spinner" role="status" class="flex min-h-[40vh] items-center justify-center gap-2 text-muted-foreground">' +
  '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="size-5 animate-spin" aria-hidden="true"><path d="M21 12a9 9 0 1 1-6.219-8.56"/></svg>' +
  '<span>Redirecting to newsletters...</span></div></main>'
