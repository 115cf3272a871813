/**
 * The Dockerfile, built and run with Debian's podman over a base image made from Debian's packages and
 * bun from npm (tests/container/base-image.sh; no image registry is reachable here). Not part of the main
 * suite (the first build takes minutes): `bash tests/container/run.sh` runs it, and .ci/run calls that.
 * Skips, printing podman's own error, where podman cannot run a container.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { IMAGE, buildImages, freePort, must, prepare, run, waitForLog } from "./podman.ts";

const MINUTES = 60_000;
const { base, podman } = await prepare();

const name = `jobsearch-test-${process.pid}`;
const volume = `${name}-data`;
const env = podman.env;
let port = 0;
let firstLog = "";
let runToReadyMs = 0;
/** podman's own share on this machine: `podman run` of a container that only runs `true`. */
let floorMs = 0;

describe.skipIf(Boolean(podman.skip))("the image", () => {
  beforeAll(async () => {
    const started = performance.now();
    await buildImages(base, env);
    console.log(`built ${IMAGE} over ${base} in ${Math.round((performance.now() - started) / 1000)} s`);
    const floor = performance.now();
    await must(["podman", "run", "--rm", "--network=host", IMAGE, "true"], env);
    floorMs = Math.round(performance.now() - floor);
    // --network=host: the container's port is on loopback, like any server a test starts.
    port = await freePort();
    const run = performance.now();
    await must(["podman", "run", "-d", "--name", name, "--network=host", "-e", `PORT=${port}`, "-e", "HOST=127.0.0.1", "-v", `${volume}:/data`, IMAGE], env);
    firstLog = await waitForLog(name, /"msg":"ready"/, env);
    runToReadyMs = Math.round(performance.now() - run);
  }, 30 * MINUTES);

  afterAll(async () => {
    await run(["podman", "rm", "-f", "-t", "0", name], env);
    await run(["podman", "volume", "rm", "-f", volume], env);
  });

  test("starts ready with the demo postings built in, and prints a first key", async () => {
    const ready = JSON.parse(firstLog.split("\n").find((line) => line.includes('"msg":"ready"'))!);
    expect(ready.postings).toBe(2400);
    expect(ready.model).toBe("static-glove-100d");
    // Neither the model nor the demo load ran at start: both are in the image.
    expect(firstLog).not.toContain("building the offline embedding model");
    expect(firstLog).not.toContain("loading the generated demo postings");
    // The container's process start (podman's StartedAt) to the ready line's time: what the image itself takes.
    const startedAt = JSON.parse((await must(["podman", "inspect", name], env)).stdout)[0].State.StartedAt as string;
    const ownMs = Date.parse(ready.time) - Date.parse(startedAt.replace(/(\.\d{3})\d*/, "$1").replace(" +0000 UTC", "Z").replace(" ", "T"));
    console.log(
      `container ready: podman run to the ready line ${runToReadyMs} ms; the container's process start to ready ${ownMs} ms, ` +
        `of which the server's own start ${ready.ms} ms; podman runs a container of \`true\` in ${floorMs} ms here`,
    );
    const readyz = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(readyz.status).toBe(200);
  });

  test("answers a search with the key it printed", async () => {
    const key = /jsk_[A-Za-z0-9_-]+/.exec(firstLog)?.[0];
    expect(key).toBeDefined();
    const response = await fetch(`http://127.0.0.1:${port}/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key! },
      body: JSON.stringify({ q: "registered nurse", top_k: 3 }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { results: Array<{ job_title: string }> };
    expect(body.results.length).toBe(3);
  });

  test("its HEALTHCHECK passes, it runs as a user of its own, and only /data is writable", async () => {
    expect((await run(["podman", "healthcheck", "run", name], env)).code).toBe(0);
    expect((await must(["podman", "exec", name, "id", "-un"], env)).stdout.trim()).toBe("jobsearch");
    expect((await run(["podman", "exec", name, "touch", "/app/written"], env)).code).not.toBe(0);
    const inspect = JSON.parse((await must(["podman", "image", "inspect", IMAGE], env)).stdout)[0];
    expect(Object.keys(inspect.Config.Volumes ?? {})).toEqual(["/data"]);
    expect((inspect.Healthcheck ?? inspect.Config.Healthcheck)?.Test?.join(" ")).toContain("/readyz");
    expect(inspect.Config.User).toBe("jobsearch");
    expect(inspect.Config.StopSignal).toBe("SIGTERM");
  });

  test("stops on SIGTERM: gracefully, exit code 0", async () => {
    // podman stop sends the image's STOPSIGNAL (SIGTERM) and waits up to 30 s before SIGKILL.
    await must(["podman", "stop", "-t", "30", name], env);
    const state = JSON.parse((await must(["podman", "inspect", name], env)).stdout)[0].State;
    expect(state.ExitCode).toBe(0);
    const log = (await must(["podman", "logs", name], env)).stderr;
    expect(log).toContain('"signal":"SIGTERM"');
    expect(log).toContain('"msg":"stopped"');
  });

  test("starts again over its volume: the same postings and key, no second key", async () => {
    await must(["podman", "start", name], env);
    const log = await waitForLog(name, /"msg":"ready"[^\n]*\n(.|\n)*"msg":"ready"/, env);
    expect(new Set(log.match(/jsk_[A-Za-z0-9_-]+/g)).size).toBe(1);
    const second = JSON.parse(log.split("\n").filter((line) => line.includes('"msg":"ready"')).pop()!);
    expect(second.postings).toBe(2400);
    expect(second.keys).toBe(1);
  });
});
