import { dlopen, FFIType } from "bun:ffi";

/*
 * The C heap's freed pages, given back to the system. LanceDB (Rust, on glibc's malloc) frees what a
 * scan read, but glibc keeps freed pages: in one arena per thread that allocated (up to 8 per core),
 * and large blocks on its heap once a large block was freed (its mmap threshold then grows to 32 MB).
 * Measured (bench/perf/memory-profile.ts, 29.5k postings): after the in-memory copy's build 210 of
 * 640 MB RSS were such pages, after 30 s of expensive requests 270 of 1,140 MB. Fixing the threshold
 * sends large blocks (Arrow buffers) to mmap, returned when freed; two arenas bound the rest, and a
 * trim after heavy work returns what stays. A no-op where there is no glibc (musl, macOS).
 */

/** Tunes glibc's malloc for a server process (call once, early): fewer arenas, large blocks mapped. */
export function tuneAllocator(): void {
  const libc = glibc();
  if (libc === undefined) return;
  libc.mallopt(M_ARENA_MAX, 2);
  libc.mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  libc.mallopt(M_TRIM_THRESHOLD, 4 * 1024 * 1024);
}

/** Returns freed C heap pages to the system (a few ms); false when this platform cannot. */
export function releaseFreedMemory(): boolean {
  const libc = glibc();
  if (libc === undefined) return false;
  libc.malloc_trim(0);
  return true;
}

// --- internal ---

/** mallopt parameters (malloc.h). */
const M_TRIM_THRESHOLD = -1;
const M_MMAP_THRESHOLD = -3;
const M_ARENA_MAX = -8;

interface Glibc {
  mallopt(parameter: number, value: number): number;
  malloc_trim(pad: number): number;
}

let loaded: Glibc | null | undefined;

function glibc(): Glibc | undefined {
  if (loaded === undefined) {
    try {
      if (process.platform !== "linux") throw new Error("not glibc");
      const { symbols } = dlopen("libc.so.6", {
        mallopt: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
        malloc_trim: { args: [FFIType.u64], returns: FFIType.i32 },
      });
      loaded = { mallopt: (p, v) => symbols.mallopt(p, v), malloc_trim: (pad) => symbols.malloc_trim(pad) };
    } catch {
      loaded = null;
    }
  }
  return loaded ?? undefined;
}
