/**
 * Import boundaries (ARCHITECTURE "Layout"): a feature never imports another feature, and shared code
 * (lib, components, config, types) imports no feature. Pages in src/app compose features.
 */
import path from 'node:path'

const srcDir = path.resolve(import.meta.dirname, '..', 'src')
const SHARED = new Set(['lib', 'components', 'config', 'types'])

/** Where an import lands inside src: ['features', 'auth', ...] or null when outside src. */
function targetSegments(source, filename) {
  let absolute
  if (source.startsWith('@/')) absolute = path.join(srcDir, source.slice(2))
  else if (source.startsWith('.')) absolute = path.resolve(path.dirname(filename), source)
  else return null
  const relative = path.relative(srcDir, absolute)
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null
  return relative.split(path.sep)
}

export const featureBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Features do not import each other; shared code imports no feature.' },
    messages: {
      crossFeature: "Feature '{{from}}' must not import feature '{{to}}'. Compose them in a page under src/app.",
      sharedImportsFeature: "'src/{{from}}' is shared code and must not import feature '{{to}}'.",
    },
    schema: [],
  },
  create(context) {
    const filename = context.filename
    const own = path.relative(srcDir, filename).split(path.sep)
    if (own[0] === '..') return {}
    const check = (node, source) => {
      if (typeof source !== 'string') return
      const target = targetSegments(source, filename)
      if (!target || target[0] !== 'features' || !target[1]) return
      if (own[0] === 'features' && own[1] !== target[1]) {
        context.report({ node, messageId: 'crossFeature', data: { from: own[1], to: target[1] } })
      } else if (SHARED.has(own[0])) {
        context.report({ node, messageId: 'sharedImportsFeature', data: { from: own[0], to: target[1] } })
      }
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    }
  },
}
