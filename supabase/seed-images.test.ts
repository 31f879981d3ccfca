// The demo data's pictures must load: every image the seed names exists under public/ and is well-formed SVG
// (one with a raw `</>` in its text showed the browser's broken-image icon).
import { readFile, readdir } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '..')

describe('seed images', () => {
  it('exist for every image the seed names, and parse as SVG', async () => {
    const seed = await readFile(path.join(root, 'supabase/seed.sql'), 'utf8')
    const named = [...new Set(seed.match(/\/seed\/[\w-]+\.svg/g) ?? [])]
    const onDisk = (await readdir(path.join(root, 'public/seed'))).map((file) => `/seed/${file}`)
    expect(named.length).toBeGreaterThan(10)
    expect(named.filter((image) => !onDisk.includes(image))).toEqual([])
    for (const image of onDisk) {
      const svg = await readFile(path.join(root, 'public', image), 'utf8')
      const doc = new DOMParser().parseFromString(svg, 'image/svg+xml')
      expect(doc.getElementsByTagName('parsererror'), image).toHaveLength(0)
      expect(doc.documentElement.nodeName, image).toBe('svg')
    }
  })
})
