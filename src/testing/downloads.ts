/**
 * Files the page downloads, as a person's browser would save them: the app builds a Blob, gives it an object URL and
 * clicks an anchor with `download`. Call inside a `describe`: it registers its own beforeEach and afterEach and
 * returns the list each test reads (emptied before every test).
 */
import { afterEach, beforeEach, vi } from 'vitest'

export type Download = { name: string; blob: Blob }

export function captureDownloads(): Download[] {
  const downloads: Download[] = []
  beforeEach(() => {
    downloads.length = 0
    const blobs = new Map<string, Blob>()
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (blob: Blob) => {
          const href = `blob:test/${blobs.size}`
          blobs.set(href, blob)
          return href
        },
        revokeObjectURL: () => {},
      }),
    )
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push({ name: this.download, blob: blobs.get(this.href)! })
    })
  })
  afterEach(() => {
    vi.restoreAllMocks()
    vi.unstubAllGlobals()
  })
  return downloads
}
