/**
 * Shares one run of an expensive read among the calls that want the same answer at once, without
 * handing anyone an answer older than their call: a call that arrives while a run for its key is
 * going waits for the next run, which starts after that one ends, and every call that arrived
 * meanwhile gets that next run's result. So at most two runs per key are alive (one running, one
 * waiting), however many calls arrive, and each answer was computed after its call came in.
 */
export function createCoalescer<T>(): (key: string, run: () => Promise<T>) => Promise<T> {
  const states = new Map<string, { running: Promise<T>; queued?: Promise<T> }>();
  const start = (key: string, run: () => Promise<T>): Promise<T> => {
    const running = run();
    const state: { running: Promise<T>; queued?: Promise<T> } = { running };
    states.set(key, state);
    // Whoever waits on the state reads `running`; this only clears it when nobody queued behind.
    void running
      .catch(() => undefined)
      .then(() => {
        if (states.get(key) === state && !state.queued) states.delete(key);
      });
    return running;
  };
  return (key, run) => {
    const state = states.get(key);
    if (!state) return start(key, run);
    if (!state.queued) {
      state.queued = state.running.catch(() => undefined).then(() => start(key, run));
    }
    return state.queued;
  };
}
