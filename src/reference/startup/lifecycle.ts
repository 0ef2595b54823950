import type { Server } from 'node:http';

// The operator's handle on a running reference, apart from what it answers: where it is reached and how it
// stops. No client request reaches this code (mutation/targets.mjs leaves startup/ unmutated).

/** The base URL of a server listening on `host`: a wildcard address is reached on the loopback. */
export function reachableUrl(host: string, port: number, basePath: string): string {
  return `http://${urlHost(host)}:${port}${basePath}`;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * The server's close(): stops listening, drops the answers still waiting on a delay, closes every
 * connection (idle keep-alive ones included). Called twice, it returns the same promise.
 */
export function closerOf(server: Server, timers: Set<NodeJS.Timeout>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= new Promise<void>((resolve) => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
}
