import net from 'node:net'

/**
 * A TCP proxy on 127.0.0.1:port to a target, for putting faults between the site and Redis:
 * closed (connections refused, open ones cut), or open with every byte held back `delayMs` in
 * each direction (a Redis that answers slowly), in order.
 */
export type TcpProxy = {
  url: (credentials?: string) => string
  /** Starts accepting connections (again). */
  open: () => Promise<void>
  /** Stops accepting connections and cuts the open ones: the client sees Redis go away. */
  close: () => Promise<void>
  /** Holds every chunk this long before passing it on, from now on. */
  setDelay: (ms: number) => void
}

export function tcpProxy({ port, target }: { port: number; target: number }): TcpProxy {
  let delayMs = 0
  const sockets = new Set<net.Socket>()
  let server: net.Server | undefined

  /** Copies `from` to `to`, each chunk `delayMs` after it arrived, never out of order. */
  function pipe(from: net.Socket, to: net.Socket) {
    let tail = Promise.resolve()
    from.on('data', (chunk) => {
      const due = Date.now() + delayMs
      tail = tail.then(async () => {
        const wait = due - Date.now()
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
        if (!to.destroyed) to.write(chunk)
      })
    })
    from.on('close', () => {
      void tail.then(() => to.destroy())
    })
    from.on('error', () => from.destroy())
  }

  function accept(client: net.Socket) {
    const upstream = net.connect({ host: '127.0.0.1', port: target })
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    }
    pipe(client, upstream)
    pipe(upstream, client)
  }

  return {
    url: (credentials) => `redis://${credentials ? `${credentials}@` : ''}127.0.0.1:${port}`,
    open: () =>
      new Promise((resolve, reject) => {
        if (server) return resolve()
        const listening = net.createServer(accept)
        listening.once('error', reject)
        listening.listen(port, '127.0.0.1', () => {
          server = listening
          resolve()
        })
      }),
    close: () =>
      new Promise((resolve) => {
        const closing = server
        server = undefined
        for (const socket of sockets) socket.destroy()
        if (!closing) return resolve()
        closing.close(() => resolve())
      }),
    setDelay: (ms) => {
      delayMs = ms
    },
  }
}
