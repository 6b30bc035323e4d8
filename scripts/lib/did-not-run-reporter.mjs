// A Playwright reporter that names every test that did not run, by project and file, and fails
// the run when there is one: a test skipped because another failed before it (a serial
// describe), a project whose dependency failed, a worker that crashed, a run interrupted. A
// test skipped on purpose (test.skip(), test.fixme(): it says why) is not counted.
// playwright.config.ts adds it beside the list reporter; `npm test` then exits non-zero and the
// end of its output says what did not run.

/** @typedef {import('@playwright/test/reporter').TestCase} TestCase */

const ON_PURPOSE = new Set(['skip', 'fixme'])

/** @param {TestCase} test */
export function didNotRun(test) {
  const last = test.results.at(-1)
  if (!last) return true
  if (last.status === 'interrupted') return true
  if (last.status !== 'skipped') return false
  return !test.annotations.some((annotation) => ON_PURPOSE.has(annotation.type))
}

export default class DidNotRunReporter {
  /** @param {import('@playwright/test/reporter').FullConfig} _config @param {import('@playwright/test/reporter').Suite} suite */
  onBegin(_config, suite) {
    this.suite = suite
  }

  printsToStdio() {
    return false
  }

  /** @param {import('@playwright/test/reporter').FullResult} result */
  onEnd(result) {
    const all = this.suite?.allTests() ?? []
    const missing = all.filter(didNotRun)
    if (missing.length === 0) return undefined
    // `playwright test --list` runs nothing and passes: not a run that dropped tests.
    if (missing.length === all.length && all.every((test) => test.results.length === 0))
      if (result.status === 'passed') return undefined
    /** @type {Map<string, string[]>} */
    const byProject = new Map()
    for (const test of missing) {
      const project = test.parent.project()?.name ?? '(no project)'
      const [, , file, ...titles] = test.titlePath()
      const list = byProject.get(project) ?? []
      list.push(`${file} › ${titles.join(' › ')}`)
      byProject.set(project, list)
    }
    const lines = [
      '',
      `✖ ${missing.length} test(s) did not run (a failure before them, a failed dependency, a crash or an interruption):`,
    ]
    for (const [project, tests] of byProject) {
      lines.push(`  project "${project}": ${tests.length}`)
      for (const test of tests) lines.push(`    - ${test}`)
    }
    console.error(lines.join('\n'))
    // A run where something did not run has not passed, whatever else happened.
    return result.status === 'passed' ? { status: 'failed' } : undefined
  }
}
