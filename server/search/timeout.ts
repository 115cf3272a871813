import { AppError } from "../../shared/errors.ts";

/**
 * The result of `work`, or AppError SERVICE_UNAVAILABLE (503) once `ms` milliseconds have passed.
 * LanceDB queries cannot be cancelled, so a search that lost the race finishes in the background
 * and its result (or failure) is dropped; the caller is answered on time either way.
 */
export async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut(ms)), ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

// --- internal ---

function timedOut(ms: number): AppError {
  return new AppError("SERVICE_UNAVAILABLE", `search timed out after ${ms} ms; try again, or narrow the query or filters`);
}
