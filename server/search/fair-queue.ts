/*
 * Fairness between callers on one process. A search is CPU work on the one JavaScript thread: while
 * one runs, every other waits, so the order in which they run decides who waits. Each search takes a
 * turn before its work and holds it only while it computes: it gives the turn back while native work
 * runs (`outside`: LanceDB, the model), offers it at its steps (`pause`), and hands it on when done.
 * A free turn goes to the waiting search whose caller used the least CPU lately (time held, halving
 * every second), the oldest first among one caller's. A key sending expensive searches therefore
 * waits behind its own, and another key's search waits at most for the step under way (a few ms,
 * the ranking's checkpoints are ~0.5 ms apart), not for the other key's backlog. Measured, not
 * estimated: a search's cost is the time it held the turn, whatever its parameters.
 */

/** One search's place in the queue. */
export interface Turn {
  /** Waits until this search may run. */
  take(): Promise<void>;
  /**
   * Lets in what arrived meanwhile (every few ms), then gives the turn to a search whose caller used
   * less CPU lately, if one waits, and takes it back after; otherwise continues at once.
   */
  pause(): Promise<void>;
  /** Awaits `work` (native work that needs no turn) without holding the turn, then takes it again. */
  outside<T>(work: Promise<T>): Promise<T>;
  /** Gives the turn back for good (the search ended, or failed); safe to call twice. */
  done(): void;
}

export interface FairQueue {
  /** A new turn of `caller` (a principal's id), for one search. */
  turn(caller: string): Turn;
  /** Searches waiting for the turn, and whether one holds it. */
  state(): { waiting: number; running: boolean };
}

export interface FairQueueOptions {
  /** ms; an injected clock for tests. */
  now?: () => number;
  /** Lets the event loop run (I/O, timers); default a macrotask (setImmediate). */
  breathe?: () => Promise<void>;
}

/** A turn that never waits: searches run whenever the event loop lets them (no queue configured). */
export const FREE_TURN: Turn = {
  take: async () => {},
  pause: async () => {},
  outside: (work) => work,
  done: () => {},
};

/** A fair queue of one process (see above). */
export function createFairQueue(options: FairQueueOptions = {}): FairQueue {
  const { now = () => performance.now(), breathe = nextMacrotask } = options;
  const callers = new Map<string, Caller>();
  let holder: Entry | undefined;
  let heldSince = 0;
  let lastBreath = now();
  let nextSeq = 0;
  let dispatches = 0;

  const usage = (caller: Caller, at: number) => caller.used * 2 ** (-(at - caller.at) / HALF_LIFE_MS);
  const charge = (caller: Caller, at: number) => {
    caller.used = usage(caller, at) + Math.max(0, at - heldSince);
    caller.at = at;
    heldSince = at;
  };

  /** Hands a free turn to the best waiting search. */
  const dispatch = () => {
    if (holder !== undefined) return;
    const at = now();
    let best: Caller | undefined;
    let bestUsage = Infinity;
    for (const caller of callers.values()) {
      const head = caller.waiting[0];
      if (head === undefined) continue;
      const used = usage(caller, at);
      if (used < bestUsage || (used === bestUsage && head.seq < best!.waiting[0]!.seq)) [best, bestUsage] = [caller, used];
    }
    if (best === undefined) return;
    const entry = best.waiting.shift()!;
    holder = entry;
    heldSince = at;
    if (++dispatches % SWEEP_EVERY === 0) sweep(at);
    entry.granted!();
  };
  const release = (entry: Entry) => {
    if (holder !== entry) return;
    charge(entry.caller, now());
    holder = undefined;
    dispatch();
  };
  /** Waits for the turn; an entry coming back (from `pause` or `outside`) keeps its place among its caller's. */
  const enqueue = (entry: Entry): Promise<void> =>
    new Promise<void>((resolve) => {
      entry.granted = resolve;
      const queue = entry.caller.waiting;
      let at = queue.length;
      while (at > 0 && queue[at - 1]!.seq > entry.seq) at--;
      queue.splice(at, 0, entry);
      dispatch();
    });
  /** Whether another caller that used less waits. */
  const someoneBefore = (entry: Entry) => {
    const at = now();
    const mine = usage(entry.caller, at);
    for (const caller of callers.values()) {
      if (caller !== entry.caller && caller.waiting.length > 0 && usage(caller, at) < mine) return true;
    }
    return false;
  };
  const sweep = (at: number) => {
    for (const [id, caller] of callers) if (caller.live === 0 && usage(caller, at) < FORGOTTEN_MS) callers.delete(id);
  };

  return {
    turn(id) {
      let caller = callers.get(id);
      if (caller === undefined) {
        caller = { used: 0, at: now(), waiting: [], live: 0 };
        callers.set(id, caller);
      } else if (caller.live === 0 && usage(caller, now()) < FORGOTTEN_MS) {
        caller.used = 0;
      }
      caller.live++;
      const entry: Entry = { caller, seq: nextSeq++ };
      let finished = false;
      return {
        take: () => (finished || holder === entry ? Promise.resolve() : enqueue(entry)),
        async pause() {
          if (holder !== entry) return;
          if (now() - lastBreath >= BREATHE_EVERY_MS) {
            await breathe();
            lastBreath = now();
          }
          charge(entry.caller, now());
          if (!someoneBefore(entry)) return;
          release(entry);
          await enqueue(entry);
        },
        async outside(work) {
          release(entry);
          try {
            return await work;
          } finally {
            if (!finished) await enqueue(entry);
          }
        },
        done() {
          if (finished) return;
          finished = true;
          caller.live--;
          const waitingAt = caller.waiting.indexOf(entry);
          if (waitingAt >= 0) caller.waiting.splice(waitingAt, 1);
          release(entry);
        },
      };
    },
    state: () => ({
      waiting: [...callers.values()].reduce((sum, caller) => sum + caller.waiting.length, 0),
      running: holder !== undefined,
    }),
  };
}

// --- internal ---

/** Used time halves every second: a key that stopped sending is a newcomer again a few seconds later. */
const HALF_LIFE_MS = 1000;
/** The turn holder lets I/O in this often, so new requests reach the queue while a search computes. */
const BREATHE_EVERY_MS = 2;
/** A caller with nothing under way whose use decayed below this is a newcomer (and forgotten at the next sweep). */
const FORGOTTEN_MS = 1;
const SWEEP_EVERY = 1024;

interface Caller {
  /** ms of turn held, decayed to `at` */
  used: number;
  at: number;
  /** waiting entries, oldest first */
  waiting: Entry[];
  /** turns handed out and not done */
  live: number;
}

interface Entry {
  caller: Caller;
  /** arrival order */
  seq: number;
  granted?: () => void;
}

function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
