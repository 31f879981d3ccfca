import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { Constants } from '@/types/database.types'
import {
  campaignStatus,
  partnerMode,
  partnerStatus,
  payoutAccountState,
  payoutStatus,
  reasonLabel,
  reasonLabels,
  statementKindOptions,
  statementStatusOptions,
  subscriptionStatus,
  transactionStatus,
  transactionTypeLabel,
  userTypeWord,
} from '@/lib/vocabulary'
import {
  categoryLabel,
  categoryOptions,
  humanise,
  platformLabel,
  platformOptions,
  publicSourceStatus,
  sourceStatus,
} from '@/lib/vocabulary-catalog'

const enums = Constants.public.Enums

describe('the one vocabulary (STYLE "One vocabulary")', () => {
  // A word the database defines but the module forgot would fall back to the humanised code: catch that.
  it.each([
    ['category', enums.category, categoryLabel],
    ['source_platform', enums.source_platform, platformLabel],
    ['not_counted_reason', enums.not_counted_reason, reasonLabel],
    ['transaction_type', enums.transaction_type, transactionTypeLabel],
    ['source_status', enums.source_status, (v: string) => sourceStatus(v).label],
    ['campaign_status', enums.campaign_status, (v: string) => campaignStatus(v).label],
    ['subscription_status', enums.subscription_status, (v: string) => subscriptionStatus(v).label],
    ['transaction_status', enums.transaction_status, (v: string) => transactionStatus(v).label],
    ['payout_status', enums.payout_status, (v: string) => payoutStatus(v).label],
    ['payout_account_state', enums.payout_account_state, (v: string) => payoutAccountState(v).label],
    ['user_type', enums.user_type, (v: string) => userTypeWord(v).label],
    ['partner_mode', enums.partner_mode, (v: string) => partnerMode(v).label],
    ['partner_status', enums.partner_status, (v: string) => partnerStatus(v).label],
  ] as const)('labels every %s the database defines, with a distinct label each', (_name, values, label) => {
    const labels = values.map((value: string) => label(value))
    for (const [i, value] of values.entries()) expect(labels[i], value).not.toBe('')
    expect(new Set(labels).size).toBe(values.length)
  })

  it('labels the reasons in plain words, never the code', () => {
    for (const reason of enums.not_counted_reason) expect(reasonLabel(reason)).not.toMatch(/_/)
    expect(reasonLabel('duplicate_visitor')).toBe('Same visitor within 1 hour')
    // The database's not_counted_reasons rows say the same (the last describe below): one wording per reason on every
    // screen, the CSV and the subscriber list included.
    expect(reasonLabel('account_suspended')).toBe('Account suspended')
    expect(reasonLabel('domain_velocity')).toBe('More than 3 readers a day from one email domain')
    expect(reasonLabel('not_engaged')).toBe('No open or click within the engagement window')
    // supabase/tests/partner-programs.test.ts pins the database's row to the same words.
    expect(reasonLabel('not_a_partner')).toBe('Not a partner of this newsletter')
  })

  it('offers every category and platform in the database order, labelled', () => {
    expect(categoryOptions.map((o) => o.value)).toEqual(enums.category)
    expect(platformOptions.map((o) => o.value)).toEqual(enums.source_platform)
    expect(categoryOptions.find((o) => o.value === 'technology')?.label).toBe('Technology')
  })

  it('offers the advertiser’s statement words: charge and every ledger type but hold and a publisher’s own; a charge’s then the ledger’s statuses', () => {
    // supabase/tests/wallet-statement-filters.test.ts proves wallet_statement accepts every one of these.
    expect(statementKindOptions.map((o) => o.value)).toEqual([
      'charge',
      ...enums.transaction_type.filter((t) => !['hold', 'earning', 'payout'].includes(t)),
    ])
    expect(statementStatusOptions.map((o) => o.value)).toEqual([
      'on_hold',
      'charged',
      'refunded',
      ...enums.transaction_status,
    ])
    expect(statementKindOptions[0]).toEqual({ value: 'charge', label: 'Charge' })
    expect(statementStatusOptions.slice(0, 3).map((o) => o.label)).toEqual(['On hold', 'Charged', 'Refunded'])
    expect(new Set(statementStatusOptions.map((o) => o.label)).size).toBe(statementStatusOptions.length)
  })

  it('spells platforms as their owners do, and twitter or x as X (SPEC §2)', () => {
    expect(platformLabel('youtube')).toBe('YouTube')
    expect(platformLabel('tiktok')).toBe('TikTok')
    expect(platformLabel('linkedin')).toBe('LinkedIn')
    expect(platformLabel('x')).toBe('X')
    expect(platformLabel('X')).toBe('X')
    expect(platformLabel('twitter')).toBe('X')
    expect(platformLabel('mastodon')).toBe('Mastodon')
    expect(platformLabel(null)).toBe('Other')
  })

  it('labels categories, says Other when there is none, and keeps an old free-text word readable', () => {
    expect(categoryLabel('technology')).toBe('Technology')
    expect(categoryLabel('Technology')).toBe('Technology')
    expect(categoryLabel(null)).toBe('Other')
    expect(categoryLabel('  ')).toBe('Other')
    expect(categoryLabel('knitting')).toBe('Knitting')
  })

  it.each([
    ['approved', 'Verified', 'green'],
    ['verified', 'Verified', 'green'],
    ['live', 'Live', 'green'],
    ['pending', 'Pending', 'yellow'],
    ['pending_review', 'Waiting for review', 'yellow'],
    ['under_review', 'Under review', 'yellow'],
    ['rejected', 'Rejected', 'red'],
    ['banned', 'Banned', 'red'],
    ['archived', 'Archived', 'grey'],
    ['something_new', 'Something new', 'grey'],
  ])('the directory badge of a %s source reads %s in %s (SPEC §2)', (status, label, tone) => {
    expect(publicSourceStatus(status)).toEqual({ label, tone })
  })

  it('tells an owner that a source is approved, where the public directory says Verified', () => {
    expect(sourceStatus('approved').label).toBe('Approved')
    expect(publicSourceStatus('approved').label).toBe('Verified')
  })

  it('shows a word it does not know yet as readable text in grey', () => {
    expect(campaignStatus('on_fire')).toEqual({ label: 'On fire', tone: 'grey' })
    expect(humanise('pending_payment')).toBe('Pending payment')
    expect(transactionTypeLabel('reservation')).toBe('Reservation')
  })
})

/**
 * The database's word list (`public.not_counted_reasons`) as supabase/schemas/02_vocabulary.sql shows it: that file is
 * generated from the migrations by `npm run db:types` (supabase/tests/schema.test.ts fails while they disagree).
 */
function databaseReasonLabels(): Record<string, string> {
  const sql = readFileSync(path.resolve(import.meta.dirname, '../../supabase/schemas/02_vocabulary.sql'), 'utf8')
  const rows = sql.slice(sql.indexOf('insert into public.not_counted_reasons'))
  const labels: Record<string, string> = {}
  for (const m of rows.matchAll(/^\s*\('([a-z_]+)', '((?:[^']|'')*)'/gm)) labels[m[1]!] = m[2]!.replaceAll("''", "'")
  return labels
}

describe('one vocabulary with the database (PRODUCT "Words and numbers, second pass")', () => {
  it('words every not-counted reason exactly as the database’s not_counted_reasons row does', () => {
    const database = databaseReasonLabels()
    expect(Object.keys(database).sort()).toEqual([...enums.not_counted_reason].sort())
    // One entry per code: the screens that show the database's label and those that show reasonLabel(code) agree.
    expect(reasonLabels).toEqual(database)
    for (const [code, label] of Object.entries(database)) expect(reasonLabel(code)).toBe(label)
  })
})
