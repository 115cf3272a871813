import { hkdfSync } from "node:crypto";
import { errors, calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";
import type { KeyRingStore } from "./key-ring-store.ts";

export const SIGNING_ALG = "ES256";

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** HMAC key for the sign-in form's CSRF token, derived from the private key so there is no second secret to keep. */
  formSecret: Buffer;
}

/** The access-token signing keys: the current one signs, the current and the previous one verify. */
export interface SigningKeys {
  current(): SigningKey;
  /** The key with this `kid`; when unknown, the shared ring is re-read once (another process may have rotated). */
  byKid(kid: string | undefined): Promise<SigningKey | undefined>;
  /** Every key of the ring, current first. */
  all(): SigningKey[];
  close(): void;
}

/**
 * The signing key ring (ES256) from `store` (a file in DATA_DIR or Redis), created with one key on
 * first start; processes sharing the store agree on that first key. The ring is re-read every
 * `refreshMs` and whenever a token names an unknown kid, so after `rotateSigningKey` every process
 * verifies new tokens at once and signs with the new key within `refreshMs`. Throws when the stored
 * ring holds anything but P-256 private keys.
 */
export async function loadSigningKeys(store: KeyRingStore, refreshMs = 60_000): Promise<SigningKeys> {
  let ring = await importRing((await store.read()) ?? (await store.create(JSON.stringify({ keys: [await newJwk()] }))), store.where);
  let reloadedAt = Date.now();
  const reload = async () => {
    reloadedAt = Date.now();
    const text = await store.read();
    if (text !== undefined) ring = await importRing(text, store.where);
  };
  const timer = setInterval(() => void reload().catch(() => {}), refreshMs);
  timer.unref();
  return {
    current: () => ring[0]!,
    async byKid(kid) {
      const find = () => ring.find((key) => key.kid === kid);
      if (kid === undefined) return undefined;
      if (!find() && Date.now() - reloadedAt > UNKNOWN_KID_RELOAD_MS) await reload().catch(() => {});
      return find();
    },
    all: () => ring,
    close: () => clearInterval(timer),
  };
}

/**
 * Puts a new key in front of the ring and keeps the one it replaces, so tokens it signed stay valid
 * until they expire; older keys are dropped. Rotate again only after ACCESS_TOKEN_TTL_S has passed.
 * Returns the new and the kept key ids.
 */
export async function rotateSigningKey(store: KeyRingStore): Promise<{ kid: string; kept: string | undefined }> {
  const text = await store.read();
  const old = text === undefined ? [] : parseRing(text, store.where);
  const fresh = await newJwk();
  await store.replace(JSON.stringify({ keys: [fresh, ...old.slice(0, 1)] }));
  return { kid: fresh.kid!, kept: old[0]?.kid };
}

/** The error jose raises for a token whose kid is not in the ring. */
export function unknownKeyError(): Error {
  return new errors.JWKSNoMatchingKey();
}

// --- internal ---

/** At most this often does an unknown kid make a process re-read the ring. */
const UNKNOWN_KID_RELOAD_MS = 1000;

async function newJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const jwk = await exportJWK(privateKey);
  jwk.kid = await calculateJwkThumbprint(jwk);
  jwk.alg = SIGNING_ALG;
  return jwk;
}

/** `{keys: [jwk, …]}`, or one bare JWK as files written before rotation existed hold. */
function parseRing(text: string, where: string): JWK[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`the OAuth signing key in ${where} is not JSON`, { cause: error });
  }
  const keys = (parsed as { keys?: unknown }).keys ?? [parsed];
  if (!Array.isArray(keys) || keys.length === 0) throw new Error(`the OAuth signing key in ${where} holds no key`);
  for (const jwk of keys as JWK[]) {
    if (jwk.kty !== "EC" || jwk.crv !== "P-256" || typeof jwk.d !== "string" || typeof jwk.kid !== "string") {
      throw new Error(`${where} is not an ES256 private key; delete it to have a new one generated`);
    }
  }
  return keys as JWK[];
}

async function importRing(text: string, where: string): Promise<SigningKey[]> {
  return Promise.all(
    parseRing(text, where).map(async (jwk) => {
      const { d, ...publicJwk } = jwk;
      return {
        kid: jwk.kid!,
        privateKey: (await importJWK(jwk, SIGNING_ALG)) as CryptoKey,
        publicKey: (await importJWK(publicJwk, SIGNING_ALG)) as CryptoKey,
        formSecret: Buffer.from(hkdfSync("sha256", Buffer.from(d!, "base64url"), "", "jobsearch oauth form", 32)),
      };
    }),
  );
}
