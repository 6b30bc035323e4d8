// `npm run typegen:check` (CI): fails when the committed sanity/schema.json or sanity/types.ts is
// not what `npm run typegen` generates from the current schemas and queries.
// It regenerates in a temporary copy of the files typegen reads, so the working tree is never
// touched (a check must not "fix" what it checks, nor race an editor's running typegen).

import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const GENERATED = ['sanity/schema.json', 'sanity/types.ts']
// What `sanity schema extract` and `sanity typegen generate` read: the CLI and Studio config, the
// schemas, the query files (typegen scans sanity/ and lib/), the campaign-page blocks (their
// schemas and GROQ fragments, imported by both), and prettier's config with the stylesheet its
// Tailwind plugin loads.
const INPUTS = [
  'package.json',
  'tsconfig.json',
  'sanity.cli.ts',
  'sanity.config.ts',
  '.prettierrc.json',
  'app/globals.css',
  'sanity',
  'lib',
  'components/blocks',
]

const work = mkdtempSync(path.join(os.tmpdir(), 'typegen-check-'))
try {
  for (const input of INPUTS) {
    if (existsSync(path.join(root, input))) {
      cpSync(path.join(root, input), path.join(work, input), { recursive: true })
    }
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(work, 'node_modules'), 'dir')

  const result = spawnSync('npm', ['run', '--silent', 'typegen'], {
    cwd: work,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DO_NOT_TRACK: '1', NO_COLOR: '1' },
  })
  if (result.status !== 0) {
    process.stdout.write(result.stdout)
    console.error('typegen:check: `npm run typegen` failed in the temporary copy.')
    process.exit(1)
  }

  const stale = GENERATED.filter(
    (file) =>
      readFileSync(path.join(root, file), 'utf8') !== readFileSync(path.join(work, file), 'utf8'),
  )
  if (stale.length > 0) {
    for (const file of stale) {
      spawnSync('diff', ['-u', path.join(root, file), path.join(work, file)], { stdio: 'inherit' })
    }
    console.error(
      `typegen:check: ${stale.join(' and ')} out of date with the schemas or queries. ` +
        'Run `npm run typegen` and commit the result.',
    )
    process.exit(1)
  }
  console.log(`typegen:check: ${GENERATED.join(' and ')} are up to date.`)
} finally {
  rmSync(work, { recursive: true, force: true })
}
