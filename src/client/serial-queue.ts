/**
 * Runs tasks one at a time, in call order. One request in flight per client is all a rate-limited
 * target should see from us, and it lets pacing read the headers of the previous answer before sending.
 */
export function createSerialQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task);
    // The next task waits for this one to settle, whatever its outcome.
    tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  };
}
