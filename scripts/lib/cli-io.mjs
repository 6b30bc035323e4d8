// What `npm run leads` and `npm run stats` print to and read from, given by the caller: the tests
// run each command in-process with their own environment and capture its output.
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * @typedef {{ env?: NodeJS.ProcessEnv, cwd?: string, stdout?: { write(text: string): unknown }, stderr?: { write(text: string): unknown } }} CliIo
 */

/** The command's environment, folder and two output lines writers, the process's by default. */
export function cliIo(/** @type {CliIo} */ io = {}) {
  const stdout = io.stdout ?? process.stdout
  const stderr = io.stderr ?? process.stderr
  return {
    env: io.env ?? process.env,
    cwd: io.cwd ?? process.cwd(),
    stdout,
    stderr,
    /** @param {unknown[]} parts */
    out: (...parts) => stdout.write(`${parts.join(' ')}\n`),
    /** @param {unknown[]} parts */
    err: (...parts) => stderr.write(`${parts.join(' ')}\n`),
  }
}

/** Runs `main` with the process's arguments when `moduleUrl` is the script node was started with. */
export async function runIfMain(
  /** @type {string} */ moduleUrl,
  /** @type {(argv: string[]) => Promise<number>} */ main,
) {
  if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(moduleUrl))
    process.exitCode = await main(process.argv.slice(2))
}

/**
 * Node's parseArgs, with a mistyped option answered in one line (in Portuguese, exit code 2 by
 * the caller) instead of a stack trace.
 * @template T
 * @param {() => T} parse
 * @returns {T | string} what `parse` returns, or the message for a usage mistake
 */
export function parsedOrUsage(parse) {
  try {
    return parse()
  } catch (error) {
    const code = /** @type {{ code?: unknown }} */ (error)?.code
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) throw error
    const option = /'([^' ]+)/.exec(String(/** @type {Error} */ (error).message))?.[1] ?? ''
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
      return `Opção desconhecida: ${option}. Veja --help.`
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
      return `Argumento inesperado: ${option}. Veja --help.`
    return `${option} precisa de um valor. Veja --help.`
  }
}
