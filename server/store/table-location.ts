import type { Connection } from "@lancedb/lancedb";
import { S3Client } from "bun";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Where the table lives: a local folder, or an object-store URI (`s3://bucket/path`) with the
 * options LanceDB passes to its object store (endpoint, region, credentials, allow_http).
 */
export interface TableLocation {
  uri: string;
  storageOptions?: Record<string, string>;
}

/** A small file kept beside the table (term statistics), local or in the object store. */
export interface SideFile {
  /** Where, for messages. */
  readonly where: string;
  /** A cheap token that changes whenever the file is rewritten (mtime or ETag); undefined when missing. */
  tag(): Promise<string | undefined>;
  read(): Promise<string | undefined>;
  /** Replaces the file whole: readers see the old or the new text, never a part. */
  write(text: string): Promise<void>;
  /** Deletes the file; nothing happens when it is missing. */
  remove(): Promise<void>;
}

/** Whether `uri` names an object store (`s3://…`) rather than a local folder. */
export function isObjectStore(uri: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(uri) && !uri.startsWith("file://");
}

/**
 * A connection to the table's place, its caches bounded: by default a connection may keep 6 GB of
 * index data and 1 GB of file metadata. Measured at 29.5k postings: 26 MB after a few full-text and
 * vector queries (which the in-memory copy answers instead); at 1M the vector index is 405 MB on disk.
 */
export async function connectTable(location: TableLocation, readConsistencyMs?: number): Promise<Connection> {
  // Loaded here, not at the top: configuration and CLI commands that never open a table (keys, a
  // search against the service) would otherwise pay LanceDB's ~0.2 s load on every start.
  const lancedb = await import("@lancedb/lancedb");
  return lancedb.connect(location.uri, {
    session: new lancedb.Session(BigInt(INDEX_CACHE_BYTES), BigInt(METADATA_CACHE_BYTES)),
    readConsistencyInterval: readConsistencyMs === undefined ? undefined : readConsistencyMs / 1000,
    ...(location.storageOptions ? { storageOptions: location.storageOptions } : {}),
  });
}
const INDEX_CACHE_BYTES = 1024 * 2 ** 20;
const METADATA_CACHE_BYTES = 256 * 2 ** 20;

/** The file `name` beside the table. Throws for object stores other than S3. */
export function sideFile(location: TableLocation, name: string): SideFile {
  if (!isObjectStore(location.uri)) return localFile(join(location.uri, name));
  const { client, key } = s3Object(location, name);
  const file = client.file(key);
  return {
    where: `${location.uri.replace(/\/+$/, "")}/${name}`,
    async tag() {
      try {
        return (await file.stat()).etag;
      } catch (error) {
        if ((error as { code?: string }).code === "NoSuchKey") return undefined;
        throw error;
      }
    },
    async read() {
      return (await file.exists()) ? file.text() : undefined;
    },
    async write(text) {
      await file.write(text); // a PUT replaces the object atomically
    },
    async remove() {
      await file.delete(); // S3 DELETE succeeds for a missing key too
    },
  };
}

/** Bytes of every file or object under `path` of the location (0 when there is none). */
export async function bytesUnder(location: TableLocation, path: string): Promise<number> {
  if (!isObjectStore(location.uri)) return folderBytes(join(location.uri, path));
  const { client, key } = s3Object(location, `${path}/`);
  let total = 0;
  let continuationToken: string | undefined;
  do {
    const page = await client.list({ prefix: key, ...(continuationToken ? { continuationToken } : {}) });
    for (const object of page.contents ?? []) total += object.size ?? 0;
    continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
  } while (continuationToken);
  return total;
}

/** Creates a local folder; object stores need no folders. */
export function prepareLocation(location: TableLocation): void {
  if (!isObjectStore(location.uri)) mkdirSync(location.uri, { recursive: true });
}

// --- internal ---

function localFile(path: string): SideFile {
  return {
    where: path,
    async tag() {
      const stat = statSync(path, { throwIfNoEntry: false });
      return stat && String(stat.mtimeMs);
    },
    async read() {
      try {
        return readFileSync(path, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
    },
    async write(text) {
      writeFileSync(`${path}.tmp`, text);
      renameSync(`${path}.tmp`, path);
    },
    async remove() {
      rmSync(path, { force: true });
    },
  };
}

/** A Bun S3 client for the location's bucket, configured from the same options LanceDB gets. */
function s3Object(location: TableLocation, name: string): { client: S3Client; key: string } {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(location.uri);
  if (!match) throw new Error(`DATA_URI ${location.uri}: only s3://bucket/path object stores are supported`);
  const [, bucket, prefix] = match as unknown as [string, string, string];
  const o = location.storageOptions ?? {};
  const client = new S3Client({
    bucket,
    ...(o.endpoint ? { endpoint: o.endpoint } : {}),
    ...(o.region ? { region: o.region } : {}),
    ...(o.aws_access_key_id ? { accessKeyId: o.aws_access_key_id } : {}),
    ...(o.aws_secret_access_key ? { secretAccessKey: o.aws_secret_access_key } : {}),
    ...(o.aws_session_token ? { sessionToken: o.aws_session_token } : {}),
  });
  const base = prefix.replace(/\/+$/, "");
  return { client, key: base === "" ? name : `${base}/${name}` };
}

function folderBytes(dir: string): number {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile()) total += statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  }
  return total;
}
