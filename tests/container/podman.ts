import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { ROOT } from "../support/helpers.ts";

/** Where the base image's root and this sandbox's podman settings are kept (git-ignored). */
export const CACHE = join(ROOT, "tests/.cache/container");
/** The image the tests build from the Dockerfile (over the local base image). */
export const IMAGE = "localhost/jobsearch:test";

export interface Podman {
  /** Set when podman cannot run containers here: why, with podman's own words. */
  skip?: string;
  /** The environment every podman and podman-compose call gets (CONTAINERS_CONF when this sandbox needs one). */
  env: Record<string, string>;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; never throws for a non-zero exit. */
export async function run(cmd: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<Run> {
  const proc = Bun.spawn(cmd, { cwd, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** Like {@link run}, but a non-zero exit throws with the command's output. */
export async function must(cmd: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<Run> {
  const result = await run(cmd, env, cwd);
  if (result.code !== 0) throw new Error(`${cmd.join(" ")} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/**
 * Finds how podman runs containers on this machine: as it is, or with the settings this sandbox needs
 * (no CAP_SYS_RESOURCE, so the container's rlimits may not exceed the caller's; cgroups in hybrid mode,
 * which crun refuses and runc accepts; no systemd, so events go to a file). Tries a container of the base
 * image each way; when none runs, `skip` says why with podman's own error.
 */
export async function findPodman(baseImage: string): Promise<Podman> {
  const found = await run(["sh", "-c", "command -v podman"]);
  if (found.code !== 0) return { skip: "podman is not installed (apt-get install -y podman podman-compose)", env: {} };
  const tries: Array<Record<string, string>> = [{}, { CONTAINERS_CONF: await sandboxConf() }];
  const errors: string[] = [];
  for (const env of tries) {
    const probe = await run(["podman", "run", "--rm", "--network=host", baseImage, "true"], env);
    if (probe.code === 0) return { env };
    errors.push(`${env.CONTAINERS_CONF ? "with " + env.CONTAINERS_CONF : "as configured"}: ${probe.stderr.trim()}`);
  }
  return { skip: `podman cannot run a container here:\n  ${errors.join("\n  ")}`, env: {} };
}

/** A free TCP port on loopback (for a container on the host's network). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * Follows a container's log (`podman logs -f`) until a line of stdout or stderr matches `pattern`;
 * resolves with the container's whole log at that moment (stdout, then stderr). Rejects when the log ends (the container stopped) first.
 */
export async function waitForLog(name: string, pattern: RegExp, env: Record<string, string>): Promise<string> {
  const proc = Bun.spawn(["podman", "logs", "-f", name], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  let seen = "";
  const decoder = new TextDecoder();
  const follow = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) {
      seen += decoder.decode(chunk, { stream: true });
      if (pattern.test(seen)) return true;
    }
    return false;
  };
  const found = await Promise.race([follow(proc.stdout), follow(proc.stderr)]);
  proc.kill();
  if (!found && !pattern.test(seen)) throw new Error(`the log of ${name} ended before ${pattern}:\n${seen}`);
  // The whole log so far, both streams: the two pipes above are read independently, so a line written to
  // stdout just before the matching one on stderr (the first key, before "ready") may not have been read yet.
  const whole = await must(["podman", "logs", name], env);
  return whole.stdout + whole.stderr;
}

// --- internal ---

/**
 * containers.conf for a sandbox like this one: rlimits no higher than this process's own hard limits
 * (podman's defaults raise nofile and nproc, which needs CAP_SYS_RESOURCE), runc, cgroupfs, file events.
 */
async function sandboxConf(): Promise<string> {
  const limits = await run(["sh", "-c", "ulimit -Hn; ulimit -Hu; cat /proc/sys/kernel/pid_max"]);
  const [nofile, nprocHard, pidMax] = limits.stdout.trim().split("\n").map((line) => Number(line.trim()));
  // podman caps its own nproc at the kernel's pid_max; a container may not ask for more than that.
  const nproc = Math.min(nprocHard || Infinity, pidMax || Infinity, 4_194_304);
  mkdirSync(CACHE, { recursive: true });
  const path = join(CACHE, "containers.conf");
  writeFileSync(
    path,
    [
      "# Written by tests/container/podman.ts for a sandbox without CAP_SYS_RESOURCE, systemd or pure cgroup v2.",
      "[containers]",
      `default_ulimits = ["nofile=${nofile || 1024}:${nofile || 1024}", "nproc=${nproc}:${nproc}"]`,
      "[engine]",
      'runtime = "runc"',
      'cgroup_manager = "cgroupfs"',
      'events_logger = "file"',
      "",
    ].join("\n"),
  );
  return path;
}

/** The images compose.yaml's services use in the tests: built here, never pulled (no registry is reachable). */
export const COMPOSE_IMAGES = {
  JOBSEARCH_IMAGE: IMAGE,
  S3_IMAGE: "localhost/jobsearch-s3rver:test",
  // Redis and haproxy from Debian's packages, one image for both (compose.yaml names their commands).
  REDIS_IMAGE: "localhost/jobsearch-debian-services:test",
  HAPROXY_IMAGE: "localhost/jobsearch-debian-services:test",
};

/**
 * Builds the service's image from the Dockerfile over `baseImage`, the s3rver stage, and an image of
 * Debian's redis-server and haproxy over the same base. Podman's layer cache makes a second call cheap.
 * --network=host: the builds reach the npm registry and Debian's mirror as this machine does.
 */
export async function buildImages(baseImage: string, env: Record<string, string>, targets: Array<"service" | "compose"> = ["service"]): Promise<void> {
  const build = ["podman", "build", "--format", "docker", "--network=host", "--build-arg", `BUN_IMAGE=${baseImage}`];
  await must([...build, "-t", IMAGE, "."], env);
  if (!targets.includes("compose")) return;
  await must([...build, "--target", "s3", "-t", COMPOSE_IMAGES.S3_IMAGE, "."], env);
  const context = join(CACHE, "debian-services");
  mkdirSync(context, { recursive: true });
  writeFileSync(
    join(context, "Containerfile"),
    `FROM ${baseImage}\nRUN apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends redis-server haproxy && rm -rf /var/lib/apt/lists/*\n`,
  );
  await must(["podman", "build", "--format", "docker", "--network=host", "-t", COMPOSE_IMAGES.REDIS_IMAGE, context], env);
}

/** The base image (tests/container/base-image.sh) and how podman runs containers here, or why the tests skip. */
export async function prepare(): Promise<{ base: string; podman: Podman }> {
  const found = await run(["sh", "-c", "command -v podman"]);
  if (found.code !== 0) return { base: "", podman: { skip: "podman is not installed (apt-get install -y podman podman-compose runc mmdebstrap)", env: {} } };
  const lastLine = (result: Run) => result.stdout.trim().split("\n").pop() ?? "";
  // The Debian root alone first (importing it runs no container), to find how containers run here.
  const plain = await run(["bash", "tests/container/base-image.sh", "--plain"]);
  if (plain.code !== 0) return { base: "", podman: { skip: `the base image could not be built:\n${plain.stderr}`, env: {} } };
  const podman = await findPodman(lastLine(plain));
  if (podman.skip) {
    console.log(`SKIPPED the container tests: ${podman.skip}`);
    return { base: "", podman };
  }
  const base = await run(["bash", "tests/container/base-image.sh"], podman.env);
  if (base.code !== 0) return { base: "", podman: { skip: `the base image could not be built:\n${base.stderr}`, env: {} } };
  return { base: lastLine(base), podman };
}
