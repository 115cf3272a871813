/**
 * A real webhook receiver on loopback for the tests: it answers each request as told (`ok`, `fail`
 * with a 500, `hang` without answering until the test ends, `redirect` a 302 elsewhere, `big` a 200
 * with an endless body), records every request, and lets a test
 * wait for the next one (an event, never a sleep).
 */
export type Behaviour = "ok" | "fail" | "hang" | "redirect" | "big";

export interface ReceivedHook {
  headers: Record<string, string>;
  body: string;
  answered: Behaviour;
}

export interface Receiver {
  url: string;
  received: ReceivedHook[];
  /** How the next requests are answered, in order; then `ok`. */
  plan: Behaviour[];
  /** Resolves once `received` satisfies `done` (checked at each request). */
  until(done: (received: ReceivedHook[]) => boolean): Promise<void>;
  stop(): Promise<void>;
}

export function startReceiver(): Receiver {
  const received: ReceivedHook[] = [];
  const waiters: Array<() => void> = [];
  let release!: () => void;
  const hung = new Promise<void>((resolve) => (release = resolve));
  const receiver: Receiver = {
    url: "",
    received,
    plan: [],
    until(done) {
      return new Promise<void>((resolve) => {
        const check = () => (done(received) ? resolve() : void waiters.push(check));
        check();
      });
    },
    async stop() {
      release();
      await server.stop(true);
    },
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(request) {
      const answered = receiver.plan.shift() ?? "ok";
      received.push({ headers: Object.fromEntries(request.headers), body: await request.text(), answered });
      for (const waiter of waiters.splice(0)) waiter();
      if (answered === "hang") await hung;
      if (answered === "fail") return new Response("not now", { status: 500 });
      if (answered === "redirect") return new Response(null, { status: 302, headers: { location: "http://127.0.0.1:9/elsewhere" } });
      if (answered === "big") return new Response(endless());
      return new Response("thanks");
    },
  });
  receiver.url = `http://127.0.0.1:${server.port}/hook`;
  return receiver;
}

/** A body that never ends (1 MiB chunks): the sender must stop reading on its own. */
function endless(): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(1024 * 1024).fill(120);
  return new ReadableStream({ pull: (controller) => controller.enqueue(chunk) });
}
