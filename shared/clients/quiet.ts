/**
 * Removes the SDK's logger middleware from a client. Our clients are never given a logger, yet
 * the middleware still builds a redacted copy of every command's input and output for the
 * default no-op logger (it checks `logger.info` exists, not that it logs): a walk of the whole
 * request and response on every call, measured at several percent of a webhook delivery's CPU
 * and of a warm GET. Errors still reach the caller unchanged.
 */
export function withoutSdkLogging<C extends { middlewareStack: { remove(name: string): boolean } }>(client: C): C {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}
