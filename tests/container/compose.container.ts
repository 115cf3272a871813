/**
 * compose.yaml with Debian's podman-compose: the one server with its volume, then the replicas profile
 * (Redis, s3rver, two replicas behind haproxy). Images come from the Dockerfile over the local base and
 * from Debian's packages (tests/container/podman.ts); none is pulled. podman-compose 1.0 has no profiles,
 * so services are named, as docs/deployment.md says. Run by `bash tests/container/run.sh`.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { COMPOSE_IMAGES, buildImages, freePort, must, prepare, run, waitForLog } from "./podman.ts";

const MINUTES = 60_000;
const { base, podman } = await prepare();
const project = `jstest${process.pid}`;
let env: Record<string, string> = {};
let port = 0;
let replicasPort = 0;

const compose = (...args: string[]) => must(["podman-compose", "-p", project, ...args], env);
const container = (service: string) => `${project}_${service}_1`;

describe.skipIf(Boolean(podman.skip))("compose.yaml", () => {
  beforeAll(async () => {
    await buildImages(base, podman.env, ["service", "compose"]);
    port = await freePort();
    replicasPort = await freePort();
    env = {
      ...podman.env,
      ...COMPOSE_IMAGES,
      PORT: String(port),
      REPLICAS_PORT: String(replicasPort),
      REPLICAS_PUBLIC_URL: `http://localhost:${replicasPort}`,
    };
  }, 30 * MINUTES);

  afterAll(async () => {
    await run(["podman-compose", "-p", project, "down", "-v"], env);
  });

  test("up: one server with its volume answers a search; stop ends it with exit code 0", async () => {
    await compose("up", "-d", "jobsearch");
    const log = await waitForLog(container("jobsearch"), /"msg":"ready"/, env);
    const key = /jsk_[A-Za-z0-9_-]+/.exec(log)![0];
    const response = await fetch(`http://127.0.0.1:${port}/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify({ q: "data analyst", top_k: 2 }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { results: unknown[] }).results.length).toBe(2);
    const volumes = JSON.parse((await must(["podman", "inspect", container("jobsearch")], env)).stdout)[0].Mounts;
    expect(volumes.map((mount: { Name?: string; Destination: string }) => [mount.Name, mount.Destination])).toEqual([[`${project}_jobsearch-data`, "/data"]]);
    await compose("stop", "jobsearch");
    const state = JSON.parse((await must(["podman", "inspect", container("jobsearch")], env)).stdout)[0].State;
    expect(state.ExitCode).toBe(0);
  }, 10 * MINUTES);

  test("the replicas: two servers sharing Redis and the S3 store answer in turn behind one port", async () => {
    await compose("up", "-d", "lb");
    // One replica loads the demo postings into the bucket (the write lease in Redis lets one do it); both get ready.
    const logs = await Promise.all(["replica-1", "replica-2"].map((service) => waitForLog(container(service), /"msg":"ready"/, env)));
    const key = /jsk_[A-Za-z0-9_-]+/.exec(logs.join("\n"))![0];
    const search = () =>
      fetch(`http://127.0.0.1:${replicasPort}/v1/search`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: JSON.stringify({ q: "nurse", top_k: 1 }),
      });
    // haproxy checks each replica's /readyz every 2 s; wait until both are in and the load has committed.
    await until(async () => {
      const readyz = await fetch(`http://127.0.0.1:${replicasPort}/readyz`).catch(() => undefined);
      const body = readyz?.ok ? ((await readyz.json()) as { checks: { table: { postings: number } } }) : undefined;
      const lb = await run(["podman", "logs", container("lb")], env);
      return body?.checks.table.postings === 2400 && ["replica-1", "replica-2"].every((server) => lastState(lb.stdout + lb.stderr, server) !== "DOWN");
    }, 5 * MINUTES);
    for (let i = 0; i < 6; i++) {
      const response = await search();
      expect(response.status).toBe(200);
      expect(((await response.json()) as { total: number }).total).toBeGreaterThan(0);
    }
    // Round robin: each replica answered some of them, with the key one of them created (it is in Redis).
    for (const service of ["replica-1", "replica-2"]) {
      const log = (await must(["podman", "logs", container(service)], env)).stderr;
      expect(log).toContain('"route":"/v1/search","status":200');
    }
  }, 15 * MINUTES);
});

/** What haproxy last said of a server: "UP", "DOWN", or undefined (never changed: up from the start). */
function lastState(log: string, server: string): string | undefined {
  const states = [...log.matchAll(new RegExp(`Server replicas/${server} is (UP|DOWN)`, "g"))];
  return states.at(-1)?.[1];
}

/** Checks `condition` until it holds, one check at a time, failing after `ms`. */
async function until(condition: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`still not so after ${ms} ms`);
    await Bun.sleep(250);
  }
}
