type ScriptMain = (
  argv: string[],
  io: {
    env: NodeJS.ProcessEnv
    cwd: string
    stdout: { write(text: string): unknown }
    stderr: { write(text: string): unknown }
  },
) => Promise<number>

/**
 * Runs a script's `main` (scripts/leads.mjs, scripts/stats.mjs) in this process, as
 * `node <script> ...argv` would in `cwd` with `env`: no node start-up nor WebAssembly compile per
 * call. What it prints is collected; each test file keeps one spawn of the script itself for the
 * command-line wiring.
 */
export async function runScript(
  main: ScriptMain,
  argv: string[],
  { env, cwd }: { env: NodeJS.ProcessEnv; cwd: string },
) {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, {
    env,
    cwd,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  })
  return { code, stdout, stderr }
}
