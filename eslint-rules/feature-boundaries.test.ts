import path from 'node:path'
import { describe, it } from 'vitest'
import { RuleTester } from 'eslint'
import { featureBoundaries } from './feature-boundaries.js'

RuleTester.describe = describe
RuleTester.it = it
const src = path.resolve(import.meta.dirname, '../src')
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2023, sourceType: 'module' } })

tester.run('feature-boundaries', featureBoundaries, {
  valid: [
    { filename: `${src}/features/auth/api/x.ts`, code: "import { y } from '@/features/auth/keys'" },
    { filename: `${src}/features/auth/api/x.ts`, code: "import { supabase } from '@/lib/supabase'" },
    {
      filename: `${src}/app/routes/home.tsx`,
      code: "import { a } from '@/features/auth/a'; import { b } from '@/features/wallet/b'",
    },
  ],
  invalid: [
    {
      filename: `${src}/features/auth/api/x.ts`,
      code: "import { w } from '@/features/wallet/api/w'",
      errors: [{ messageId: 'crossFeature' }],
    },
    {
      filename: `${src}/features/auth/api/x.ts`,
      code: "import { w } from '../../wallet/api/w'",
      errors: [{ messageId: 'crossFeature' }],
    },
    {
      filename: `${src}/lib/thing.ts`,
      code: "import { w } from '@/features/wallet/api/w'",
      errors: [{ messageId: 'sharedImportsFeature' }],
    },
    {
      filename: `${src}/components/header.tsx`,
      code: "const m = import('@/features/auth/a')",
      errors: [{ messageId: 'sharedImportsFeature' }],
    },
  ],
})
