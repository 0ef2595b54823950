import { readFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer, request as httpRequest } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * What stands in front of staging where teams deploy it: a gateway that wants a header (optionally over
 * TLS with a private CA), and a forward proxy. Each counts what it saw, so a test can prove the run went
 * through it.
 */

const TLS_DIR = fileURLToPath(new URL('../../fixtures/tls/', import.meta.url));
export const TEST_CA = `${TLS_DIR}ca.pem`;
const FRONT_HEADER_SIZE = 256 * 1024;

export interface Front {
  url: string;
  close(): Promise<void>;
}

export interface Gateway extends Front {
  /** Requests forwarded (the header was right) and refused (it was missing or wrong). */
  readonly seen: { forwarded: number; refused: number };
}

/** Forwards each request to `upstream` when it carries `name: value`; otherwise 403, as an access proxy answers. */
export async function startGateway(
  upstream: string,
  header: { name: string; value: string },
  options: { tls?: boolean; /** A front with Node's own limit (16 KiB) answers an oversized head with a bare 431 itself. */ maxHeaderSize?: number } = {},
): Promise<Gateway> {
  const seen = { forwarded: 0, refused: 0 };
  const target = new URL(upstream);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers[header.name.toLowerCase()] !== header.value) {
      seen.refused += 1;
      res.writeHead(403, { 'content-type': 'text/html' }).end('<h1>Forbidden</h1><p>Access to staging needs a token.</p>');
      return;
    }
    seen.forwarded += 1;
    const headers = { ...req.headers };
    delete headers[header.name.toLowerCase()];
    const upstreamRequest = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...headers, host: target.host } },
      (upstreamResponse) => {
        res.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.rawHeaders);
        upstreamResponse.pipe(res);
      },
    );
    upstreamRequest.on('error', () => res.destroy());
    req.pipe(upstreamRequest);
  };
  // Transparent to what the suite sends: the reference, not the front, answers an oversized header.
  const maxHeaderSize = options.maxHeaderSize ?? FRONT_HEADER_SIZE;
  const server = options.tls
    ? createHttpsServer({ cert: readFileSync(`${TLS_DIR}server.pem`), key: readFileSync(`${TLS_DIR}server.key`), maxHeaderSize }, handler)
    : createServer({ maxHeaderSize }, handler);
  const url = await listen(server, options.tls ? 'https' : 'http');
  return { url: `${url}/v1`, seen, close: () => close(server) };
}

export interface ForwardProxy extends Front {
  /** CONNECT tunnels opened, and requests forwarded in absolute form. */
  readonly seen: { tunnels: number; forwarded: number };
}

/**
 * An HTTP forward proxy: CONNECT tunnels (https targets) and absolute-form requests (http targets). With
 * `localAddress` its tunnels leave from that address (127.0.0.2: another machine, as far as a target
 * that judges by address can tell).
 */
export async function startForwardProxy(options: { localAddress?: string } = {}): Promise<ForwardProxy> {
  const seen = { tunnels: 0, forwarded: 0 };
  const sockets = new Set<Socket>();
  const server = createServer({ maxHeaderSize: FRONT_HEADER_SIZE }, (req, res) => {
    seen.forwarded += 1;
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute-form required');
      return;
    }
    const upstreamRequest = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: `${target.pathname}${target.search}`, headers: req.headers },
      (upstreamResponse) => {
        res.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.rawHeaders);
        upstreamResponse.pipe(res);
      },
    );
    upstreamRequest.on('error', () => res.destroy());
    req.pipe(upstreamRequest);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.tunnels += 1;
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect({ port: Number(port), host: host as string, ...(options.localAddress ? { localAddress: options.localAddress } : {}) }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });
  const url = await listen(server, 'http');
  return {
    url,
    seen,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await close(server);
    },
  };
}

async function listen(server: Server, scheme: 'http' | 'https'): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
