import { dlopen, FFIType } from "bun:ffi";

/*
 * Gives the C heap's free pages back to the system. LanceDB (Rust, glibc malloc) frees what a scan
 * read, but glibc keeps freed pages in its arenas: after the in-memory copy's build read the whole
 * table, 210 of 640 MB RSS were such pages (bench/perf/memory-profile.ts); malloc_trim returns them.
 * A no-op where there is no glibc (musl, macOS).
 */

/** Returns freed C heap pages to the system (a few ms); false when this platform cannot. */
export function releaseFreedMemory(): boolean {
  const trim = mallocTrim();
  if (trim === undefined) return false;
  trim(0);
  return true;
}

// --- internal ---

let loaded: ((pad: number) => number) | null | undefined;

function mallocTrim(): ((pad: number) => number) | undefined {
  if (loaded === undefined) {
    try {
      const libc = dlopen(process.platform === "linux" ? "libc.so.6" : "", { malloc_trim: { args: [FFIType.u64], returns: FFIType.i32 } });
      loaded = (pad) => libc.symbols.malloc_trim(pad);
    } catch {
      loaded = null;
    }
  }
  return loaded ?? undefined;
}
