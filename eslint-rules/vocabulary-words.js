/**
 * One vocabulary on every screen (PRODUCT "Words and numbers, second pass"): a status, category, platform or reason
 * is shown through src/lib/vocabulary.ts (whose reason words are the database's not_counted_reasons labels), never as
 * the raw database value, nor humanised by hand with `.replace('_', ' ')` — either would word it differently from the
 * other screens. Applies to what JSX renders: text children and template literals inside them.
 */
// Not `reason`: a dispute's or a refund's reason is the person's own text.
const WORD_FIELDS = new Set(['status', 'category', 'platform', 'not_counted_reason', 'user_type'])

const propertyName = (node) =>
  node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier' ? node.property.name : null

/** The raw word an expression shows: `x.status`, `x.category ?? 'none'`, `x.status.replace('_', ' ')`. */
function rawWord(node) {
  if (!node) return null
  if (node.type === 'ChainExpression') return rawWord(node.expression)
  // `a && b` renders b (a falsy string renders nothing); `a ?? b` and `a || b` render a when it is there.
  if (node.type === 'LogicalExpression') return node.operator === '&&' ? rawWord(node.right) : rawWord(node.left)
  if (node.type === 'ConditionalExpression') return rawWord(node.consequent) ?? rawWord(node.alternate)
  const field = propertyName(node)
  if (field && WORD_FIELDS.has(field)) return field
  if (
    node.type === 'CallExpression' &&
    propertyName(node.callee) &&
    ['replace', 'replaceAll'].includes(node.callee.property.name) &&
    node.arguments[0] &&
    ((node.arguments[0].type === 'Literal' && node.arguments[0].value === '_') ||
      (node.arguments[0].type === 'Literal' && node.arguments[0].regex?.pattern === '_'))
  )
    return 'a code humanised by hand'
  return null
}

export const vocabularyWords = {
  meta: {
    type: 'problem',
    docs: { description: 'Statuses, categories, platforms and reasons are shown in the vocabulary’s words.' },
    messages: {
      raw: 'Show {{field}} through src/lib/vocabulary.ts (statusWord, categoryLabel, platformLabel, reasonLabel…), not raw: every screen must word it the same.',
    },
    schema: [],
  },
  create(context) {
    const check = (expression) => {
      const field = rawWord(expression)
      if (field) context.report({ node: expression, messageId: 'raw', data: { field } })
    }
    return {
      JSXExpressionContainer(node) {
        if (node.parent.type !== 'JSXElement' && node.parent.type !== 'JSXFragment') return
        check(node.expression)
        if (node.expression.type === 'TemplateLiteral') node.expression.expressions.forEach(check)
      },
    }
  },
}
