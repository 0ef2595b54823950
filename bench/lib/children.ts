import { type ChildProcess, fork } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.ts';
import type { RecordedReply } from '../children/bare-child.ts';

export interface ChildServer {
  url: string;
  /** Sends a message and resolves with the first reply of the same type. */
  ask<T>(type: string): Promise<T>;
  stop(): Promise<void>;
  /** The child's exit code and signal once it has exited (a crash, unless stop() was called). */
  exit(): { code: number | null; signal: string | null } | undefined;
}

/** Forks a bench child (tsx loader, optional --expose-gc) and waits for its {type:'ready', url}. */
export async function forkChild(name: 'reference-child' | 'bare-child', env: Record<string, string> = {}): Promise<ChildServer> {
  const child: ChildProcess = fork(join(REPO_ROOT, 'bench', 'children', `${name}.ts`), [], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let exit: { code: number | null; signal: string | null } | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start in 30 s`)), 30_000);
    child.once('message', (message: { type: string; url: string }) => {
      clearTimeout(timer);
      resolve(message.url);
    });
    void exited.then(() => reject(new Error(`${name} exited before it was ready`)));
  });
  return {
    url,
    exit: () => exit,
    ask<T>(type: string) {
      return new Promise<T>((resolve) => {
        const onMessage = (message: { type: string }) => {
          if (message.type !== type) return;
          child.off('message', onMessage);
          resolve(message as T);
        };
        child.on('message', onMessage);
        child.send({ type });
      });
    },
    async stop() {
      if (child.exitCode === null) child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// node:http adds these itself; copying them would duplicate or contradict its own framing.
const FRAMING = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** One request with node:http, keeping the raw header pairs, so the bare server can replay the bytes. */
export function record(url: string, method: 'GET' | 'POST', headers: Record<string, string>, body?: string): Promise<RecordedReply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i] as string;
          if (!FRAMING.has(name.toLowerCase())) pairs.push([name, res.rawHeaders[i + 1] as string]);
        }
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.setTimeout(10_000, () => req.destroy(new Error('record: no answer in 10 s')));
    req.on('error', reject);
    req.end(body);
  });
}
