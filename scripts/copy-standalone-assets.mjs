// After `next build`: copies into <distDir>/standalone what its server.js serves but Next leaves
// out, so that `node <distDir>/standalone/server.js` serves the whole site from that one folder.
// https://nextjs.org/docs/app/api-reference/config/next-config-js/output#automatically-copying-traced-files
// - public/ and <distDir>/static: Next says "these folders should ideally be handled by a CDN
//   instead", and copies neither; here the server serves them, as `next start` does.
// - supabase/migrations: the embedded lead store applies them when it opens (server.js runs in
//   the standalone folder, the working directory lib/leads/db.mjs reads them from).
import fs from 'node:fs'
import path from 'node:path'

const distDir = process.env.NEXT_DIST_DIR || '.next'
const standalone = path.join(distDir, 'standalone')

if (!fs.existsSync(path.join(standalone, 'server.js'))) {
  console.error(
    `${standalone}/server.js is missing: run \`next build\` (output: 'standalone') first.`,
  )
  process.exit(1)
}

const copies = [
  ['public', path.join(standalone, 'public')],
  [path.join(distDir, 'static'), path.join(standalone, distDir, 'static')],
  [path.join('supabase', 'migrations'), path.join(standalone, 'supabase', 'migrations')],
]
for (const [from, to] of copies) {
  fs.rmSync(to, { recursive: true, force: true })
  fs.cpSync(from, to, { recursive: true })
}
console.log(`Copied ${copies.map(([from]) => from).join(', ')} into ${standalone}.`)
