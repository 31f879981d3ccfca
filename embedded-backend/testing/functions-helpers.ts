// Shared by the functions runner tests: a backend context for the runner alone and ApiRequest builders.
import path from 'node:path'
import type { ApiRequest, BackendContext } from '../context'
import { apiKeys, loadSigningKey, LOCAL_SIGNING_JWK } from '../keys'

export const fixtures = path.join(import.meta.dirname, 'fixtures/functions')
export const keys = await apiKeys()
export const signingKey = await loadSigningKey(LOCAL_SIGNING_JWK)

export function runnerContext(): BackendContext {
  return {
    // The runner never touches the database or the backend's mailer; functions reach both over HTTP/SMTP.
    db: undefined as unknown as BackendContext['db'],
    mailer: { send: async () => {} },
    config: { auth: { site_url: 'http://127.0.0.1:5173' }, functions: { 'open-echo': { verify_jwt: false } } },
    apiUrl: 'http://127.0.0.1:56401',
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    publishableKey: keys.publishableKey,
    secretKey: keys.secretKey,
    smtp: { host: '127.0.0.1', port: 56402 },
    signingKey,
  }
}

export function request(name: string, overrides: Partial<ApiRequest> = {}): ApiRequest {
  return {
    method: 'POST',
    path: `/${name}`,
    query: new URLSearchParams(),
    headers: { authorization: `Bearer ${keys.anonKey}`, apikey: keys.anonKey, 'content-type': 'application/json' },
    body: Buffer.from('{}'),
    ip: '127.0.0.1',
    role: 'anon',
    claims: { role: 'anon' },
    ...overrides,
  }
}

export const bodyOf = (body: unknown) =>
  JSON.parse(Buffer.isBuffer(body) ? body.toString('utf8') : JSON.stringify(body))
