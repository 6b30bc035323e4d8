import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * `next build` with a distDir other than .next rewrites tsconfig.json (adds `<distDir>/types`
 * to include) and next-env.d.ts (points it at that distDir). Both belong to the developer's
 * setup, not to a test or bench build, so put them back exactly as they were.
 * @template T
 * @param {string} root the project folder
 * @param {() => Promise<T>} task
 * @returns {Promise<T>}
 */
export async function withProjectFilesRestored(root, task) {
  const files = ['tsconfig.json', 'next-env.d.ts'].map((name) => {
    const file = path.join(root, name)
    return { file, before: existsSync(file) ? readFileSync(file, 'utf8') : null }
  })
  try {
    return await task()
  } finally {
    for (const { file, before } of files) {
      const now = existsSync(file) ? readFileSync(file, 'utf8') : null
      if (now === before) continue
      if (before === null) rmSync(file)
      else writeFileSync(file, before)
    }
  }
}
