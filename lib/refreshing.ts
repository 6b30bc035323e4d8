// A value read from elsewhere (the Content Lake, the database, the site's own API) and kept for a
// while: the one way the site caches such a read in a process (issue 68). Loaded on first need,
// then again once `ttlMs` old, one load at a time; a failed load keeps the value it had.

export type Refreshing<T> = {
  /**
   * The value as of `at`. Once it is old, `stale: 'serve'` answers the old value at once and
   * refreshes in the background (only the first read waits); `stale: 'wait'` waits for the new
   * one. Undefined until a load has succeeded.
   */
  get(at?: number): Promise<T | undefined>
  /** The value held now, without loading. */
  peek(): T | undefined
}

export function refreshing<T>(
  load: () => Promise<T>,
  options: {
    ttlMs: number
    stale: 'serve' | 'wait'
    now?: () => number
    /** Told of a failed load; the old value stays. */
    onError?: (error: unknown) => void
  },
): Refreshing<T> {
  const now = options.now ?? Date.now
  let held: { value: T } | undefined
  let until = 0
  let loading: Promise<void> | undefined
  const refresh = () =>
    (loading ??= load()
      .then(
        (value) => {
          held = { value }
        },
        (error: unknown) => options.onError?.(error),
      )
      .finally(() => {
        until = now() + options.ttlMs
        loading = undefined
      }))
  return {
    async get(at = now()) {
      if (at >= until) {
        const pending = refresh()
        if (!held || options.stale === 'wait') await pending
      }
      return held?.value
    },
    peek: () => held?.value,
  }
}
