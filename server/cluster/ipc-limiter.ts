import { AppError } from "../../shared/errors.ts";
import type { Logger } from "../log.ts";
import { limitsUnavailable, type HitOptions, type RateDecision, type RateLimiter, type Slot } from "../auth/rate-limit.ts";

/*
 * Without Redis, the primary's in-memory limiter is the service's one limiter: the other server
 * processes ask it over their IPC channel. One small message each way per decision (a hit, taking a
 * slot in flight); giving a slot back is one message without an answer. Decisions are exact, as in
 * one process: the primary decides every request in arrival order, and a worker that cannot ask it
 * refuses (fails closed) rather than decide alone. A round trip costs ~20–60 µs of
 * latency and a few µs of CPU (bench/perf/processes.ts measures it), against milliseconds per search.
 */

/** A worker's question to the primary. */
export type LimiterRequest =
  | { t: "hit"; id: number; principal: string; limit: number; options: HitOptions }
  | { t: "enter"; id: number; principal: string; limit: number }
  | { t: "leave"; slot: number };

/** The primary's answer, matched by `id`. */
export type LimiterReply =
  | { t: "decision"; id: number; decision: RateDecision }
  | { t: "slot"; id: number; slot: number | null }
  | { t: "failed"; id: number; message: string };

/**
 * The primary's side: answers one worker's requests from `limiter` through `reply`. `release()` gives
 * back every slot the worker still holds (call it when the worker exits, so a dead worker frees them).
 */
export function serveLimiter(limiter: RateLimiter, reply: (message: LimiterReply) => void) {
  const held = new Map<number, Slot>();
  let nextSlot = 0;
  return {
    async handle(message: LimiterRequest): Promise<void> {
      if (message.t === "leave") {
        held.get(message.slot)?.leave();
        held.delete(message.slot);
        return;
      }
      try {
        if (message.t === "hit") {
          reply({ t: "decision", id: message.id, decision: await limiter.hit(message.principal, message.limit, message.options) });
          return;
        }
        const slot = await limiter.enter(message.principal, message.limit);
        if (slot) held.set(++nextSlot, slot);
        reply({ t: "slot", id: message.id, slot: slot ? nextSlot : null });
      } catch (error) {
        reply({ t: "failed", id: message.id, message: error instanceof Error ? error.message : String(error) });
      }
    },
    release(): void {
      for (const slot of held.values()) slot.leave();
      held.clear();
    },
  };
}

/**
 * A worker's limiter: every decision is the primary's (see {@link serveLimiter}), sent through `send`;
 * feed the primary's replies to `receive`. Fails closed: when the primary does not answer within 3 s
 * (or the channel is gone), the request is refused with {@link limitsUnavailable} (503), never decided
 * here, and one warning is logged per outage. A slot the primary grants after the worker gave up on
 * it is given straight back; a hit it counts late stays counted (a refused request charged, never
 * one admitted beyond the limit).
 */
export function createIpcRateLimiter(send: (message: LimiterRequest) => boolean, log: Logger) {
  const pending = new Map<number, { resolve(reply: LimiterReply | undefined): void; timer: Timer }>();
  let nextId = 0;
  let failing = false;
  let closed = false;

  const giveBack = (slot: number) => {
    try {
      send({ t: "leave", slot });
    } catch {
      // the primary is gone, and its count with it
    }
  };
  const ask = (message: LimiterRequest & { id: number }): Promise<LimiterReply | undefined> =>
    new Promise((resolve) => {
      if (closed) return resolve(undefined);
      const timer = setTimeout(() => settle(message.id, undefined), REPLY_TIMEOUT_MS);
      pending.set(message.id, { resolve, timer });
      let sent = false;
      try {
        sent = send(message);
      } catch {
        // the channel is closed: the primary is gone
      }
      if (!sent) settle(message.id, undefined);
    });
  const settle = (id: number, reply: LimiterReply | undefined) => {
    const waiting = pending.get(id);
    if (!waiting) {
      // An answer after the worker gave up on it: the request was refused, so a slot granted goes back.
      if (reply?.t === "slot" && reply.slot !== null) giveBack(reply.slot);
      return;
    }
    pending.delete(id);
    clearTimeout(waiting.timer);
    if (reply === undefined && !failing && !closed) log.warn("rate limit: the primary process does not answer, refusing requests until it does");
    if (reply !== undefined && failing) log.info("rate limit: the primary process answers again");
    failing = reply === undefined;
    waiting.resolve(reply);
  };
  /** The primary's answer; limitsUnavailable() when there is none. */
  const answered = (reply: LimiterReply | undefined) => {
    if (reply === undefined) throw limitsUnavailable();
    if (reply.t === "failed") throw new AppError("INTERNAL_ERROR", `rate limit: ${reply.message}`);
    return reply;
  };

  const limiter: RateLimiter = {
    async hit(principal, limit, options = {}) {
      const reply = answered(await ask({ t: "hit", id: ++nextId, principal, limit, options }));
      if (reply.t !== "decision") throw new AppError("INTERNAL_ERROR", "rate limit: the primary answered a hit with a slot");
      return reply.decision;
    },
    async enter(principal, limit) {
      const reply = answered(await ask({ t: "enter", id: ++nextId, principal, limit }));
      if (reply.t !== "slot") throw new AppError("INTERNAL_ERROR", "rate limit: the primary answered a slot with a decision");
      const number = reply.slot;
      if (number === null) return undefined;
      let left = false;
      return {
        leave() {
          if (left) return;
          left = true;
          giveBack(number);
        },
      };
    },
    close() {
      closed = true;
      for (const id of [...pending.keys()]) settle(id, undefined);
    },
  };
  return { limiter, receive: (reply: LimiterReply) => settle(reply.id, reply) };
}

// --- internal ---

/**
 * The primary answers in microseconds when idle, but a busy one (expensive searches, a storm of 429s,
 * a long GC) was seen to take over a second under load (bench/perf/fairness.ts): refusing a
 * well-behaved key then is worse than waiting. Three seconds means it is stuck or gone.
 */
const REPLY_TIMEOUT_MS = 3000;
