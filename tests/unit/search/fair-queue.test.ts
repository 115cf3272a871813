/**
 * The fair queue (server/search/fair-queue.ts) on an injected clock: one search holds the turn at a
 * time; a free turn goes to the caller that used the least lately, oldest first within a caller; a
 * pause hands the turn to a lighter caller; work outside the turn lets others run; use decays.
 */
import { describe, expect, test } from "bun:test";
import { createFairQueue, type Turn } from "../../../server/search/fair-queue.ts";

describe("fair queue", () => {
  test("one search holds the turn at a time; the next starts when it is done", async () => {
    const { queue, order } = setup();
    const a = queue.turn("a");
    await a.take();
    const b = started(queue.turn("b"), "b", order);
    await settle();
    expect(order).toEqual([]);
    expect(queue.state()).toEqual({ waiting: 1, running: true });
    a.done();
    await b;
    expect(order).toEqual(["b"]);
  });

  test("a free turn goes to the caller that used the least; one caller's searches run oldest first", async () => {
    const { queue, clock, order } = setup();
    const first = queue.turn("heavy");
    await first.take();
    clock.advance(50);
    const waiting = [
      started(queue.turn("heavy"), "heavy 2", order),
      started(queue.turn("heavy"), "heavy 3", order),
      started(queue.turn("light"), "light 1", order),
      started(queue.turn("light"), "light 2", order),
    ];
    first.done();
    await Promise.all(waiting.map((w) => w.then((turn) => turn.done())));
    expect(order).toEqual(["light 1", "light 2", "heavy 2", "heavy 3"]);
  });

  test("a pause hands the turn to a lighter caller's search and takes it back after", async () => {
    const { queue, clock, order } = setup();
    const heavy = queue.turn("heavy");
    await heavy.take();
    clock.advance(20);
    const light = started(queue.turn("light"), "light", order);
    const paused = heavy.pause().then(() => order.push("heavy again"));
    const lightTurn = await light;
    clock.advance(2);
    lightTurn.done();
    await paused;
    expect(order).toEqual(["light", "heavy again"]);
  });

  test("a pause continues at once when only the same caller's searches wait", async () => {
    const { queue, clock, order } = setup();
    const one = queue.turn("a");
    await one.take();
    const two = started(queue.turn("a"), "a 2", order);
    clock.advance(20);
    await one.pause();
    expect(order).toEqual([]);
    one.done();
    await two;
    expect(order).toEqual(["a 2"]);
  });

  test("the heavier caller keeps the turn through a pause while a lighter one is not waiting", async () => {
    const { queue, clock } = setup();
    const light = queue.turn("light");
    await light.take();
    clock.advance(30);
    light.done();
    const heavy = queue.turn("heavy");
    await heavy.take();
    clock.advance(5);
    await heavy.pause();
    expect(queue.state()).toEqual({ waiting: 0, running: true });
    heavy.done();
  });

  test("work outside the turn lets others run, and the search takes the turn back before going on", async () => {
    const { queue, order } = setup();
    const a = queue.turn("a");
    await a.take();
    const native = Promise.withResolvers<string>();
    const outside = a.outside(native.promise).then((value) => order.push(`a got ${value}`));
    const b = await started(queue.turn("b"), "b", order);
    native.resolve("rows");
    await settle();
    expect(order).toEqual(["b"]);
    b.done();
    await outside;
    expect(order).toEqual(["b", "a got rows"]);
    expect(queue.state()).toEqual({ waiting: 0, running: true });
  });

  test("use decays: a caller idle for seconds is a newcomer again, and arrival order decides", async () => {
    const { queue, clock, order } = setup();
    const old = queue.turn("old");
    await old.take();
    clock.advance(100);
    old.done();
    clock.advance(20_000);
    const holder = queue.turn("x");
    await holder.take();
    const waiting = [started(queue.turn("old"), "old", order), started(queue.turn("new"), "new", order)];
    holder.done();
    await Promise.all(waiting.map((w) => w.then((turn) => turn.done())));
    expect(order).toEqual(["old", "new"]);
  });

  test("two callers that both keep sending take turns", async () => {
    const { queue, clock, order } = setup();
    const searches = ["a", "b"].flatMap((caller) => [1, 2, 3].map((n) => ({ label: `${caller}${n}`, turn: queue.turn(caller) })));
    const runs = searches.map(async ({ label, turn }) => {
      await turn.take();
      order.push(label);
      clock.advance(10);
      turn.done();
    });
    await Promise.all(runs);
    expect(order).toEqual(["a1", "b1", "a2", "b2", "a3", "b3"]);
  });

  test("done gives up a place still waiting, and twice is once", async () => {
    const { queue, order } = setup();
    const a = queue.turn("a");
    await a.take();
    const gone = queue.turn("b");
    void gone.take().then(() => order.push("gone"));
    const next = started(queue.turn("c"), "c", order);
    gone.done();
    gone.done();
    a.done();
    await next;
    await settle();
    expect(order).toEqual(["c"]);
  });
});

// --- helpers ---

function setup() {
  let ms = 0;
  const clock = { now: () => ms, advance: (by: number) => void (ms += by) };
  const queue = createFairQueue({ now: clock.now, breathe: () => Promise.resolve() });
  return { queue, clock, order: [] as string[] };
}

/** Takes `turn`, then notes `label` as started; resolves with the turn (held). */
async function started(turn: Turn, label: string, order: string[]): Promise<Turn> {
  await turn.take();
  order.push(label);
  return turn;
}

/** Lets every pending promise callback run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
