import type { Rule } from 'eslint'
export declare const vocabularyWords: Rule.RuleModule
