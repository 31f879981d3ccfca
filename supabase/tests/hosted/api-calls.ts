/**
 * Every database call the SPA and the edge functions make, read from their source rather than listed by hand:
 * `.rpc('name', args)` and `.from('table')` with the operation chained to it (select, insert, update, upsert,
 * delete), the columns it reads, writes and filters on, where it is, and which API role makes it. The hosted lane
 * (hosted-lane.test.ts) runs each one as that role on a database prepared as hosted Supabase prepares one.
 *
 * Roles:
 * - SPA: `authenticated`; also `anon` where the call can be made signed out. That is decided from the imports: a
 *   call is signed-out reachable when its file is imported (statically or lazily) from src/main.tsx or from a
 *   public page of the route table, without going through the router's lazy import of a dashboard page or of a
 *   page with a `role`. An over-approximation (a signed-out page may hold a call it only makes for a signed-in
 *   user), chosen so a visitor's call is never left unchecked.
 * - Edge functions: `service_role` through `serviceClient()` or a client made with the service-role / secret key;
 *   `authenticated` through a client made with the anon / publishable key and the caller's Authorization header.
 * A call whose table, function, columns or client cannot be read statically is reported in `unresolved`, so a
 * new way of writing a call fails the lane instead of going unchecked.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

export type ApiRole = 'anon' | 'authenticated' | 'service_role'
export type TableOperation = 'select' | 'insert' | 'update' | 'upsert' | 'delete'

export type TableAccess = {
  kind: 'table'
  table: string
  operation: TableOperation
  /** PostgREST's select string: what is read (after a write: what `.select()` asks back). Null: nothing read. */
  select: string | null
  /** Columns written (insert, update, upsert); null when the written value cannot be read from the source. */
  writes: string[] | null
  /** Columns filtered or ordered on. */
  filters: string[]
  onConflict?: string
  ignoreDuplicates?: boolean
  roles: ApiRole[]
  site: string
}

/** Named arguments as the code passes them; `complete` false when part of them comes from an unreadable spread. */
export type RpcArgs = { keys: string[]; complete: boolean }

export type RpcCall = { kind: 'rpc'; name: string; args: RpcArgs[]; roles: ApiRole[]; site: string }

export type ApiCall = TableAccess | RpcCall

export type Unresolved = { site: string; reason: string }

export type Scan = { calls: ApiCall[]; unresolved: Unresolved[] }

const FILTERS = new Set([
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'likeAllOf',
  'likeAnyOf',
  'ilikeAllOf',
  'ilikeAnyOf',
  'is',
  'in',
  'contains',
  'containedBy',
  'overlaps',
  'rangeGt',
  'rangeGte',
  'rangeLt',
  'rangeLte',
  'rangeAdjacent',
  'textSearch',
  'not',
  'filter',
  'order',
])
const WRITES = new Set(['insert', 'update', 'upsert', 'delete'])

/** Reads every call under `root` (the repository): src/**\/*.ts(x) and supabase/functions/**\/*.ts. */
export function scanApiCalls(root: string): Scan {
  const project = new Project(root)
  const calls: ApiCall[] = []
  const unresolved: Unresolved[] = []
  const signedOut = project.signedOutReachable()
  for (const file of project.files('src')) {
    const reachable = signedOut.has(file.fileName)
    const roles = (call: ts.Node): ApiRole[] =>
      reachable && !forSignedInUser(call) ? ['anon', 'authenticated'] : ['authenticated']
    new FileScan(project, file, (_receiver, call) => roles(call), calls, unresolved, isSpaClient).run()
  }
  for (const file of project.files('supabase/functions')) {
    new FileScan(
      project,
      file,
      (receiver) => edgeRoles(file, receiver),
      calls,
      unresolved,
      () => true,
    ).run()
  }
  return { calls, unresolved }
}

/**
 * A call the SPA makes for the signed-in user: one inside a function that takes the user (a parameter named
 * `user`, `userId` or `session`), or whose arguments name `user.id` / `userId`. Such a call sits on a
 * signed-out page only for the moment after signing in (the profile and wallet set-up of the sign-in flow).
 */
function forSignedInUser(call: ts.Node): boolean {
  const USER = /^(user|userId|session)$/
  if (/\buser\.id\b|\buserId\b/.test(call.parent?.getText() ?? '')) return true
  for (let up: ts.Node | undefined = call.parent; up; up = up.parent) {
    if (!ts.isFunctionLike(up)) continue
    for (const p of up.parameters) {
      const names = ts.isIdentifier(p.name)
        ? [p.name.text]
        : ts.isObjectBindingPattern(p.name)
          ? p.name.elements.map((e) => (ts.isIdentifier(e.name) ? e.name.text : ''))
          : []
      if (names.some((n) => USER.test(n))) return true
    }
  }
  return false
}

/** The SPA reaches the database only through `supabase` from src/lib/supabase.ts. */
function isSpaClient(receiver: ts.Expression): boolean {
  return ts.isIdentifier(receiver) && receiver.text === 'supabase'
}

class Project {
  private readonly cache = new Map<string, ts.SourceFile | null>()

  constructor(readonly root: string) {}

  /** The TypeScript sources under `dir`, tests and declarations left out. */
  files(dir: string): ts.SourceFile[] {
    const out: ts.SourceFile[] = []
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        const full = path.join(d, name)
        if (statSync(full).isDirectory()) {
          if (name !== 'node_modules') walk(full)
        } else if (/\.(ts|tsx)$/.test(name) && !/\.(test|spec)\.tsx?$/.test(name) && !name.endsWith('.d.ts')) {
          const file = this.source(full)
          if (file) out.push(file)
        }
      }
    }
    walk(path.join(this.root, dir))
    return out.sort((a, b) => a.fileName.localeCompare(b.fileName))
  }

  source(file: string): ts.SourceFile | null {
    if (!this.cache.has(file)) {
      const text = existsSync(file) ? readFileSync(file, 'utf8') : null
      this.cache.set(
        file,
        text === null
          ? null
          : ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? 4 : 3),
      )
    }
    return this.cache.get(file)!
  }

  relative(file: ts.SourceFile, node: ts.Node): string {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file))
    return `${path.relative(this.root, file.fileName)}:${line + 1}`
  }

  /** The file an import specifier names, for this project's own modules (`@/…`, relative); null otherwise. */
  resolve(from: string, specifier: string): string | null {
    let base: string
    if (specifier.startsWith('@/')) base = path.join(this.root, 'src', specifier.slice(2))
    else if (specifier.startsWith('@rules/'))
      base = path.join(this.root, 'supabase/functions/_shared/rules', specifier.slice(7))
    else if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier)
    else return null
    for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
      if (existsSync(candidate) && statSync(candidate).isFile()) return candidate
    }
    return null
  }

  /**
   * The SPA files a signed-out visitor's browser can run: the import closure of src/main.tsx and of the public
   * pages, where the router's lazy imports are followed only to public pages (see the module comment).
   */
  signedOutReachable(): Set<string> {
    const router = path.join(this.root, 'src/app/router.tsx')
    const routerFile = this.source(router)
    const publicPages = routerFile ? this.publicPages(routerFile) : []
    const seen = new Set<string>()
    const queue = [path.join(this.root, 'src/main.tsx'), ...publicPages]
    while (queue.length) {
      const file = queue.pop()!
      if (seen.has(file)) continue
      seen.add(file)
      const source = this.source(file)
      if (!source) continue
      for (const { specifier, lazy } of imports(source)) {
        if (file === router && lazy) continue
        const target = this.resolve(file, specifier)
        if (target && !seen.has(target)) queue.push(target)
      }
    }
    return seen
  }

  /** The route modules of router.tsx outside the three dashboards whose route object names no `role`. */
  private publicPages(router: ts.SourceFile): string[] {
    const out: string[] = []
    const visit = (node: ts.Node) => {
      if (isDynamicImport(node)) {
        const specifier = (node.arguments[0] as ts.StringLiteral).text
        let signedIn = false
        let route: ts.ObjectLiteralExpression | undefined
        for (let up: ts.Node | undefined = node.parent; up; up = up.parent) {
          if (!route && ts.isObjectLiteralExpression(up)) route = up
          if (ts.isVariableDeclaration(up) && /Area$/.test(up.name.getText(router))) signedIn = true
        }
        if (route && /\brole\s*:/.test(route.getText(router))) signedIn = true
        const target = this.resolve(router.fileName, specifier)
        if (!signedIn && target) out.push(target)
      }
      ts.forEachChild(node, visit)
    }
    visit(router)
    return out
  }
}

function isDynamicImport(node: ts.Node): node is ts.CallExpression {
  return (
    ts.isCallExpression(node) &&
    node.expression.kind === ts.SyntaxKind.ImportKeyword &&
    node.arguments.length > 0 &&
    ts.isStringLiteral(node.arguments[0]!)
  )
}

/** A module's runtime imports: static ones (type-only left out), re-exports and `import()`. */
function imports(file: ts.SourceFile): { specifier: string; lazy: boolean }[] {
  const out: { specifier: string; lazy: boolean }[] = []
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({ specifier: node.moduleSpecifier.text, lazy: false })
    } else if (
      ts.isExportDeclaration(node) &&
      !node.isTypeOnly &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      out.push({ specifier: node.moduleSpecifier.text, lazy: false })
    } else if (isDynamicImport(node)) {
      out.push({ specifier: (node.arguments[0] as ts.StringLiteral).text, lazy: true })
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return out
}

/** An expression in the file that holds it (a value may come from another module). */
type Located = { node: ts.Expression; file: ts.SourceFile }

const unwrap = (node: ts.Expression): ts.Expression => {
  let n = node
  while (
    ts.isParenthesizedExpression(n) ||
    ts.isAsExpression(n) ||
    ts.isNonNullExpression(n) ||
    ts.isSatisfiesExpression(n) ||
    ts.isAwaitExpression(n) ||
    ts.isTypeAssertionExpression(n)
  )
    n = n.expression
  return n
}

/** The declaration `name` refers to at `at`: a variable, a parameter, a function, or an import. */
function declarationOf(
  name: string,
  at: ts.Node,
):
  | { kind: 'variable'; decl: ts.VariableDeclaration }
  | { kind: 'parameter'; decl: ts.ParameterDeclaration; fn: ts.SignatureDeclaration }
  | { kind: 'function'; decl: ts.FunctionDeclaration }
  | { kind: 'import'; specifier: string; imported: string }
  | null {
  for (let up: ts.Node | undefined = at; up; up = up.parent) {
    if (ts.isFunctionLike(up)) {
      for (const p of up.parameters) {
        if (ts.isIdentifier(p.name) && p.name.text === name) return { kind: 'parameter', decl: p, fn: up }
      }
    }
    const statements =
      ts.isBlock(up) || ts.isSourceFile(up) || ts.isModuleBlock(up) || ts.isCaseClause(up) ? up.statements : null
    if (!statements) continue
    for (const s of statements) {
      if (ts.isVariableStatement(s)) {
        for (const d of s.declarationList.declarations) {
          if (ts.isIdentifier(d.name) && d.name.text === name) return { kind: 'variable', decl: d }
        }
      } else if (ts.isFunctionDeclaration(s) && s.name?.text === name) {
        return { kind: 'function', decl: s }
      } else if (ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier)) {
        const named = s.importClause?.namedBindings
        if (named && ts.isNamedImports(named)) {
          for (const el of named.elements) {
            if (el.name.text === name) {
              return { kind: 'import', specifier: s.moduleSpecifier.text, imported: (el.propertyName ?? el.name).text }
            }
          }
        }
      }
    }
  }
  return null
}

/** An exported `const name = …` of a module. */
function exportedConst(file: ts.SourceFile, name: string): ts.Expression | null {
  for (const s of file.statements) {
    if (!ts.isVariableStatement(s)) continue
    for (const d of s.declarationList.declarations) {
      if (ts.isIdentifier(d.name) && d.name.text === name && d.initializer) return d.initializer
    }
  }
  return null
}

class FileScan {
  constructor(
    private readonly project: Project,
    private readonly file: ts.SourceFile,
    private readonly rolesOf: (receiver: ts.Expression, call: ts.CallExpression) => ApiRole[] | string,
    private readonly calls: ApiCall[],
    private readonly unresolved: Unresolved[],
    private readonly isClient: (receiver: ts.Expression) => boolean,
  ) {}

  run() {
    const visit = (node: ts.Node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        (node.expression.name.text === 'rpc' || node.expression.name.text === 'from')
      ) {
        const receiver = unwrap(node.expression.expression)
        if (this.isClient(receiver) && !this.isArrayLike(receiver)) this.call(node, node.expression.name.text, receiver)
      }
      ts.forEachChild(node, visit)
    }
    visit(this.file)
  }

  /** `Array.from(…)`, `Buffer.from(…)`, `Uint8Array.from(…)`: not a database call. */
  private isArrayLike(receiver: ts.Expression) {
    return ts.isIdentifier(receiver) && /^[A-Z]/.test(receiver.text)
  }

  private site(node: ts.Node) {
    return this.project.relative(this.file, node)
  }

  private fail(node: ts.Node, reason: string) {
    this.unresolved.push({ site: this.site(node), reason })
  }

  private call(node: ts.CallExpression, method: 'rpc' | 'from', receiver: ts.Expression) {
    const roles = this.rolesOf(receiver, node)
    if (typeof roles === 'string') return this.fail(node, roles)
    const [first, second] = node.arguments
    if (!first) return this.fail(node, `.${method}() without arguments`)
    if (method === 'rpc') {
      for (const { name, args } of this.rpcTargets(first, second)) {
        if (name === null) this.fail(node, `rpc name ${first.getText(this.file)} cannot be read`)
        else this.calls.push({ kind: 'rpc', name, args, roles, site: this.site(node) })
      }
      return
    }
    const table = this.string({ node: first, file: this.file })
    if (table === null) return this.fail(node, `table name ${first.getText(this.file)} cannot be read`)
    this.tableAccess(node, table, roles)
  }

  /**
   * The function names and arguments of one `.rpc(name, args)`: literal ones, or — where the name is a parameter
   * of a local helper such as `rpc(name, args)` — those of every call of that helper in the file.
   */
  private rpcTargets(
    first: ts.Expression,
    second: ts.Expression | undefined,
  ): { name: string | null; args: RpcArgs[] }[] {
    const name = unwrap(first)
    if (ts.isIdentifier(name)) {
      const decl = declarationOf(name.text, name)
      if (decl?.kind === 'parameter') {
        const helper = helperName(decl.fn)
        const nameIndex = decl.fn.parameters.indexOf(decl.decl)
        const argsDecl =
          second && ts.isIdentifier(unwrap(second))
            ? declarationOf((unwrap(second) as ts.Identifier).text, second)
            : null
        const argsIndex = argsDecl?.kind === 'parameter' ? decl.fn.parameters.indexOf(argsDecl.decl) : -1
        if (helper) {
          return this.callsOf(helper).map((call) => {
            const n = call.arguments[nameIndex]
            const a = argsIndex >= 0 ? call.arguments[argsIndex] : second
            return {
              name: n ? this.string({ node: n, file: this.file }) : null,
              args: a ? this.argKeys({ node: a, file: this.file }) : [{ keys: [], complete: true }],
            }
          })
        }
      }
    }
    return [
      {
        name: this.string({ node: first, file: this.file }),
        args: second ? this.argKeys({ node: second, file: this.file }) : [{ keys: [], complete: true }],
      },
    ]
  }

  private callsOf(helper: string): ts.CallExpression[] {
    const out: ts.CallExpression[] = []
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === helper)
        out.push(node)
      ts.forEachChild(node, visit)
    }
    visit(this.file)
    return out
  }

  private tableAccess(from: ts.CallExpression, table: string, roles: ApiRole[]) {
    const steps = [...chainAbove(from), ...this.continuation(from)]
    const access: TableAccess = {
      kind: 'table',
      table,
      operation: 'select',
      select: null,
      writes: null,
      filters: [],
      roles,
      site: this.site(from),
    }
    for (const step of steps) {
      const [a0, a1] = step.args
      if (WRITES.has(step.method)) {
        access.operation = step.method as TableOperation
        if (step.method !== 'delete') {
          const keys = a0 ? this.argKeys({ node: a0, file: this.file }) : []
          access.writes = keys.every((k) => k.complete) ? [...new Set(keys.flatMap((k) => k.keys))].sort() : null
        }
        if (step.method === 'upsert' && a1) {
          const options = this.objectProperties(a1)
          access.onConflict = options.get('onConflict') ?? undefined
          access.ignoreDuplicates = options.get('ignoreDuplicates') === 'true'
        }
      } else if (step.method === 'select') {
        const text = a0 ? this.string({ node: a0, file: this.file }) : '*'
        if (text === null) this.fail(step.node, `select list ${a0!.getText(this.file)} cannot be read`)
        access.select = text ?? '*'
      } else if (step.method === 'or') {
        const text = a0 ? this.string({ node: a0, file: this.file }, true) : null
        if (text === null) this.fail(step.node, `or filter cannot be read`)
        else access.filters.push(...orColumns(text))
      } else if (step.method === 'match') {
        const keys = a0 ? this.argKeys({ node: a0, file: this.file }) : []
        access.filters.push(...keys.flatMap((k) => k.keys))
      } else if (FILTERS.has(step.method)) {
        const columns = a0 ? this.strings({ node: a0, file: this.file }) : null
        if (columns === null) this.fail(step.node, `.${step.method}() column cannot be read`)
        else access.filters.push(...columns.map((c) => c.split(/->>?/)[0]!))
      }
    }
    if (access.operation === 'select' && access.select === null) access.select = '*'
    access.filters = [...new Set(access.filters)].sort()
    this.calls.push(access)
  }

  /**
   * Calls chained later on the variable the query was stored in (`let q = supabase.from(…)…; if (term) q =
   * q.ilike(…)`), in the same function.
   */
  private continuation(from: ts.CallExpression): Step[] {
    let top: ts.Node = from
    while (top.parent && (ts.isPropertyAccessExpression(top.parent) || ts.isCallExpression(top.parent)))
      top = top.parent
    const decl = top.parent
    if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name)) return []
    let scope: ts.Node = decl
    while (scope.parent && !ts.isFunctionLike(scope) && !ts.isSourceFile(scope)) scope = scope.parent
    return this.chainsOn(decl.name.text, scope, decl.name, new Set<string>())
  }

  /**
   * The calls chained on the variable `name` within `scope`, and — where the variable is handed to a function of
   * this file (`applyFilters(query, …)`) — those chained on that function's parameter.
   */
  private chainsOn(name: string, scope: ts.Node, declared: ts.Node, seen: Set<string>): Step[] {
    const key = `${name}@${scope.pos}`
    if (seen.has(key)) return []
    seen.add(key)
    const steps: Step[] = []
    const visit = (node: ts.Node) => {
      if (ts.isIdentifier(node) && node.text === name && node !== declared) {
        const parent = node.parent
        if (ts.isPropertyAccessExpression(parent) && parent.expression === node) {
          const call = parent.parent
          if (ts.isCallExpression(call) && call.expression === parent) {
            steps.push({ method: parent.name.text, args: [...call.arguments], node: call }, ...chainAbove(call))
          }
        } else if (ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isIdentifier(parent.name)) {
          steps.push(...this.chainsOn(parent.name.text, scope, parent.name, seen))
        } else if (ts.isCallExpression(parent) && ts.isIdentifier(parent.expression)) {
          const index = parent.arguments.indexOf(node)
          const callee = declarationOf(parent.expression.text, parent)
          const fn =
            callee?.kind === 'function'
              ? callee.decl
              : callee?.kind === 'variable' &&
                  callee.decl.initializer &&
                  (ts.isArrowFunction(callee.decl.initializer) || ts.isFunctionExpression(callee.decl.initializer))
                ? callee.decl.initializer
                : null
          const param = fn && index >= 0 ? fn.parameters[index] : undefined
          if (fn && param && ts.isIdentifier(param.name))
            steps.push(...this.chainsOn(param.name.text, fn, param.name, seen))
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(scope)
    return steps
  }

  /** Every string the expression may be (`cond ? 'a' : 'b'`, a const holding that); null when one is unknown. */
  private strings(at: Located): string[] | null {
    const node = unwrap(at.node)
    if (ts.isConditionalExpression(node)) {
      const a = this.strings({ node: node.whenTrue, file: at.file })
      const b = this.strings({ node: node.whenFalse, file: at.file })
      return a && b ? [...a, ...b] : null
    }
    if (node.kind === ts.SyntaxKind.NullKeyword) return []
    if (ts.isIdentifier(node)) {
      const value = this.constValue(node, at.file)
      if (value) return this.strings(value)
    }
    const one = this.string(at)
    return one === null ? null : [one]
  }

  /** A string the expression always has (literals, concatenations, consts here or imported); null otherwise. */
  private string(at: Located, placeholders = false): string | null {
    const node = unwrap(at.node)
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text
    if (ts.isTemplateExpression(node)) {
      let out = node.head.text
      for (const span of node.templateSpans) {
        const value = this.string({ node: span.expression, file: at.file }, placeholders)
        if (value === null && !placeholders) return null
        out += (value ?? 'x') + span.literal.text
      }
      return out
    }
    if (ts.isConditionalExpression(node) && placeholders) {
      const a = this.string({ node: node.whenTrue, file: at.file }, true)
      const b = this.string({ node: node.whenFalse, file: at.file }, true)
      return a !== null && b !== null ? `${a},${b}` : null
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const a = this.string({ node: node.left, file: at.file }, placeholders)
      const b = this.string({ node: node.right, file: at.file }, placeholders)
      return a !== null && b !== null ? a + b : null
    }
    if (ts.isIdentifier(node)) {
      const value = this.constValue(node, at.file)
      return value ? this.string(value, placeholders) : null
    }
    return null
  }

  /** The initializer of the const an identifier names, following one import into this project. */
  private constValue(id: ts.Identifier, file: ts.SourceFile): Located | null {
    const decl = declarationOf(id.text, id)
    if (decl?.kind === 'variable' && decl.decl.initializer) return { node: decl.decl.initializer, file }
    if (decl?.kind === 'import') {
      const target = this.project.resolve(file.fileName, decl.specifier)
      const module = target ? this.project.source(target) : null
      const init = module ? exportedConst(module, decl.imported) : null
      if (init && module) return { node: init, file: module }
    }
    return null
  }

  /** The keys of an object the code passes (alternatives for a conditional; incomplete past an unknown spread). */
  private argKeys(at: Located): RpcArgs[] {
    const node = unwrap(at.node)
    if (ts.isConditionalExpression(node)) {
      return [
        ...this.argKeys({ node: node.whenTrue, file: at.file }),
        ...this.argKeys({ node: node.whenFalse, file: at.file }),
      ]
    }
    if (ts.isArrayLiteralExpression(node)) {
      const all = node.elements.flatMap((e) => this.argKeys({ node: e, file: at.file }))
      return [{ keys: [...new Set(all.flatMap((a) => a.keys))], complete: all.every((a) => a.complete) }]
    }
    if (ts.isIdentifier(node)) {
      if (node.text === 'undefined') return [{ keys: [], complete: true }]
      const value = this.constValue(node, at.file)
      return value ? this.argKeys(value) : [{ keys: [], complete: false }]
    }
    if (!ts.isObjectLiteralExpression(node)) return [{ keys: [], complete: false }]
    let alternatives: RpcArgs[] = [{ keys: [], complete: true }]
    for (const p of node.properties) {
      if (ts.isSpreadAssignment(p)) {
        const spread = this.argKeys({ node: p.expression, file: at.file })
        alternatives = alternatives.flatMap((a) =>
          spread.map((s) => ({ keys: [...a.keys, ...s.keys], complete: a.complete && s.complete })),
        )
      } else if (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) {
        alternatives = alternatives.map((a) => ({
          ...a,
          keys: [...a.keys, p.name!.getText(at.file).replace(/['"]/g, '')],
        }))
      } else {
        alternatives = alternatives.map((a) => ({ ...a, complete: false }))
      }
    }
    return alternatives.map((a) => ({ keys: [...new Set(a.keys)].sort(), complete: a.complete }))
  }

  /** `{ onConflict: 'id', ignoreDuplicates: true }` as text values. */
  private objectProperties(expression: ts.Expression): Map<string, string | null> {
    const out = new Map<string, string | null>()
    const node = unwrap(expression)
    if (!ts.isObjectLiteralExpression(node)) return out
    for (const p of node.properties) {
      if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name)) {
        const v = unwrap(p.initializer)
        out.set(
          p.name.text,
          v.kind === ts.SyntaxKind.TrueKeyword
            ? 'true'
            : v.kind === ts.SyntaxKind.FalseKeyword
              ? 'false'
              : this.string({ node: v, file: this.file }),
        )
      }
    }
    return out
  }
}

type Step = { method: string; args: ts.Expression[]; node: ts.CallExpression }

/** The calls chained onto `call`: `.from('t').select(…).eq(…)` → select, eq. */
function chainAbove(call: ts.CallExpression): Step[] {
  const steps: Step[] = []
  let current: ts.Expression = call
  for (;;) {
    const access = current.parent
    if (!access || !ts.isPropertyAccessExpression(access) || access.expression !== current) break
    const next = access.parent
    if (!next || !ts.isCallExpression(next) || next.expression !== access) break
    steps.push({ method: access.name.text, args: [...next.arguments], node: next })
    current = next
  }
  return steps
}

/** The columns of PostgREST's `or=(a.eq.1,b.is.null,and(c.gt.2,d.lt.3))`. */
function orColumns(text: string): string[] {
  return text
    .split(/[(),]/)
    .map((part) => part.trim())
    .filter((part) => /^[A-Za-z_][A-Za-z0-9_]*(->>?[^.]+)*\.(not\.)?[a-z]+\./.test(part))
    .map((part) => part.split('.')[0]!.split(/->>?/)[0]!)
}

/** The name a function-like node is called by in its file (`function rpc(…)`, `const rpc = (…) =>`). */
function helperName(fn: ts.SignatureDeclaration): string | null {
  if (ts.isFunctionDeclaration(fn) && fn.name) return fn.name.text
  const parent = fn.parent
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text
  return null
}

/**
 * The role behind an edge function's client: `serviceClient()` and clients made with the service-role or secret key
 * are `service_role`; a client made with the anon or publishable key that forwards the caller's Authorization
 * header is `authenticated`. Followed through variables, parameters typed `ReturnType<typeof f>` and local type
 * aliases, and local functions that return a client. A string says why it cannot be told.
 */
function edgeRoles(file: ts.SourceFile, receiver: ts.Expression): ApiRole[] | string {
  const seen = new Set<ts.Node>()
  const ofExpression = (expression: ts.Expression): ApiRole[] | string => {
    const node = unwrap(expression)
    if (seen.has(node)) return 'a client defined in terms of itself'
    seen.add(node)
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const callee = node.expression.text
      if (callee === 'createClient') return ofCreateClient(node)
      return ofFunctionName(callee, node)
    }
    if (ts.isIdentifier(node)) {
      const decl = declarationOf(node.text, node)
      if (decl?.kind === 'variable' && decl.decl.initializer) return ofExpression(decl.decl.initializer)
      if (decl?.kind === 'parameter' && decl.decl.type) return ofType(decl.decl.type)
      return `the client \`${node.text}\` cannot be traced to how it was made`
    }
    return `the client \`${node.getText(file)}\` cannot be traced to how it was made`
  }
  const ofFunctionName = (name: string, at: ts.Node): ApiRole[] | string => {
    if (name === 'serviceClient') return ['service_role']
    const decl = declarationOf(name, at)
    let body: ts.Node | undefined
    if (decl?.kind === 'function') body = decl.decl.body
    else if (decl?.kind === 'variable' && decl.decl.initializer && ts.isArrowFunction(decl.decl.initializer))
      body = decl.decl.initializer.body
    if (!body) return `the client comes from \`${name}()\`, which cannot be read`
    let made: ApiRole[] | string = `\`${name}()\` makes no client this scan recognises`
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'createClient')
        made = ofCreateClient(node)
      else ts.forEachChild(node, visit)
    }
    visit(body)
    return made
  }
  const ofType = (type: ts.TypeNode): ApiRole[] | string => {
    if (ts.isTypeReferenceNode(type)) {
      const name = type.typeName.getText(file)
      if (name === 'ReturnType' && type.typeArguments?.[0] && ts.isTypeQueryNode(type.typeArguments[0])) {
        return ofFunctionName(type.typeArguments[0].exprName.getText(file), type)
      }
      for (const s of file.statements) {
        if (ts.isTypeAliasDeclaration(s) && s.name.text === name) return ofType(s.type)
      }
    }
    return `a client typed \`${type.getText(file)}\` cannot be traced to how it was made`
  }
  const ofCreateClient = (call: ts.CallExpression): ApiRole[] | string => {
    const key = call.arguments[1]?.getText(file) ?? ''
    const options = call.arguments[2]?.getText(file) ?? ''
    if (/SERVICE_ROLE|SECRET/i.test(key)) return ['service_role']
    if (/ANON|PUBLISHABLE/i.test(key)) return /Authorization/i.test(options) ? ['authenticated'] : ['anon']
    return `createClient with the key \`${key}\` cannot be told apart`
  }
  return ofExpression(receiver)
}
