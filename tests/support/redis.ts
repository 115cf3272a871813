import { RedisClient } from "bun";
import { createServer } from "node:net";

export interface TestRedis {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  stop(): Promise<void>;
}

/**
 * A real, throwaway `redis-server` on a free loopback port: no persistence, stopped by `stop()` or,
 * at the latest, when the test process exits. Resolves once it answers PING.
 * Throws with the install command when `redis-server` is not on PATH.
 */
export async function startRedis(): Promise<TestRedis> {
  const binary = Bun.which("redis-server");
  if (!binary) {
    throw new Error("redis-server is not on PATH; install it with `apt-get install -y redis-server` (npm test installs it as root)");
  }
  // A port found free can be taken before redis binds it; a few attempts cover that race.
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const proc = Bun.spawn(
      [binary, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--loglevel", "warning"],
      { stdout: "pipe", stderr: "pipe" },
    );
    const kill = () => proc.kill();
    process.once("exit", kill);
    const url = `redis://127.0.0.1:${port}`;
    try {
      await waitForPing(url, proc);
    } catch (error) {
      lastError = error;
      process.off("exit", kill);
      proc.kill();
      await proc.exited;
      continue;
    }
    return {
      url,
      async stop() {
        process.off("exit", kill);
        proc.kill();
        await proc.exited;
      },
    };
  }
  throw new Error("redis-server did not start", { cause: lastError });
}

// --- internal ---

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPing(url: string, proc: Bun.Subprocess<"ignore", "pipe", "pipe">): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) {
      const stdout = await new Response(proc.stdout).text();
      throw new Error(`redis-server exited with ${proc.exitCode}: ${stdout.trim()}`);
    }
    const client = new RedisClient(url, { autoReconnect: false, enableOfflineQueue: false, connectionTimeout: 500 });
    try {
      await client.connect();
      if ((await client.send("PING", [])) === "PONG") return;
    } catch {
      // not listening yet
    } finally {
      client.close();
    }
    await Bun.sleep(25);
  }
  throw new Error(`redis-server at ${url} did not answer PING within 10 s`);
}
