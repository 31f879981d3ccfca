// The npm registry this project is built against serves each native package only for the platforms it
// mirrors, so `npm install` leaves other platforms' optional binaries out of package-lock.json and
// `npm ci` then refuses the lockfile. This adds those optional entries back (marked optional, with the
// platform they are for, so npm skips them here). Run it after changing dependencies:
//   node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs'

const file = process.argv[2] ?? 'package-lock.json'
const lock = JSON.parse(readFileSync(file, 'utf8'))
const packages = lock.packages
const guess = (name) => {
  const os = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix'].find((o) =>
    name.includes(o),
  )
  const cpu = ['x64', 'arm64', 'ia32', 'arm', 'wasm32', 'riscv64', 'ppc64', 's390x', 'loong64'].find((c) =>
    new RegExp(`[-_]${c}([-_]|$)`).test(name),
  )
  const libc = /musl/.test(name) ? ['musl'] : /gnu/.test(name) ? ['glibc'] : undefined
  return { ...(os && { os: [os] }), ...(cpu && { cpu: [cpu] }), ...(libc && { libc }) }
}
let added = 0
for (const [key, entry] of Object.entries(packages)) {
  const prefix = key === '' ? 'node_modules/' : `${key}/node_modules/`
  for (const [dep, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    // npm resolves a dependency from the nearest node_modules up the tree.
    const parts = key.split('/node_modules/')
    let found = false
    for (let i = parts.length; i >= 0 && !found; i--) {
      const base = parts.slice(0, i).join('/node_modules/')
      const candidate = base ? `${base}/node_modules/${dep}` : `node_modules/${dep}`
      if (packages[candidate]) found = true
    }
    if (found) continue
    // Hoisted, where npm would put it, unless another version already sits there.
    const target = packages[`node_modules/${dep}`] ? `${prefix}${dep}` : `node_modules/${dep}`
    packages[target] = {
      version: String(spec).replace(/^[\^~=]/, ''),
      ...(entry.dev && { dev: true }),
      optional: true,
      ...guess(dep),
    }
    added++
  }
}
// npm orders the entries with an English collation, whatever the machine's locale (@npmcli/arborist's
// shrinkwrap); sorting the same way keeps `npm install` from reordering what this script wrote.
const collator = new Intl.Collator('en')
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : collator.compare(a, b))),
)
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`complete-lockfile: added ${added} optional platform entries to ${file}`)
