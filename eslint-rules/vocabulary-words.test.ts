// A screen that shows a status, category, platform or reason raw (or humanised by hand) words it differently from
// the vocabulary every other screen uses: the lint fails it (PRODUCT "Words and numbers, second pass").
import { describe, it } from 'vitest'
import { RuleTester } from 'eslint'
import { vocabularyWords } from './vocabulary-words.js'

RuleTester.describe = describe
RuleTester.it = it
const tester = new RuleTester({
  languageOptions: { ecmaVersion: 2023, sourceType: 'module', parserOptions: { ecmaFeatures: { jsx: true } } },
})

tester.run('vocabulary-words', vocabularyWords, {
  valid: [
    { code: 'const a = <Badge>{sourceStatus(s.status).label}</Badge>' },
    { code: 'const a = <p>{categoryLabel(c.category)}</p>' },
    { code: 'const a = <p>{c.category && <Badge>{categoryLabel(c.category)}</Badge>}</p>' },
    { code: 'const a = <Item status={s.status} />' },
    // A dispute's reason is the advertiser's own words.
    { code: 'const a = <p>“{d.reason}”</p>' },
  ],
  invalid: [
    { code: 'const a = <Badge>{s.status}</Badge>', errors: [{ messageId: 'raw' }] },
    {
      code: "const a = <p>{s.platform} · {s.category ?? 'no category'}</p>",
      errors: [{ messageId: 'raw' }, { messageId: 'raw' }],
    },
    { code: "const a = <Badge>{status.replace('_', ' ')}</Badge>", errors: [{ messageId: 'raw' }] },
    { code: 'const a = <p>{`Why: ${r.not_counted_reason}`}</p>', errors: [{ messageId: 'raw' }] },
    { code: "const a = <p>{ok ? 'Fine' : r.user_type}</p>", errors: [{ messageId: 'raw' }] },
  ],
})
