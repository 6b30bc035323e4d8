/**
 * This server itself (`next start` sets __NEXT_PRIVATE_ORIGIN to the address it listens on),
 * never the public address: a request to the public host would go through the front and its
 * load balancer, to whichever instance, and its cache. Used by proxy.ts and the webhook.
 */
export function ownOrigin(): string {
  return process.env.__NEXT_PRIVATE_ORIGIN || `http://127.0.0.1:${process.env.PORT || 3000}`
}
