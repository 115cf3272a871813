import { hkdfSync } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";

export const SIGNING_ALG = "ES256";
export const SIGNING_KEY_FILE = "oauth-signing-key.json";

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** HMAC key for the sign-in form's CSRF token, derived from the private key so there is no second secret to keep. */
  formSecret: Buffer;
}

/**
 * The access-token signing key (ES256) from `<dataDir>/oauth-signing-key.json`, created with mode
 * 0600 on first start. Tokens therefore survive restarts and are valid on every process sharing
 * DATA_DIR. Throws when the file exists but is not a P-256 private JWK.
 */
export async function loadSigningKey(dataDir: string): Promise<SigningKey> {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, SIGNING_KEY_FILE);
  const jwk = readJwk(path) ?? (await createJwk(path));
  if (jwk.kty !== "EC" || jwk.crv !== "P-256" || typeof jwk.d !== "string" || typeof jwk.kid !== "string") {
    throw new Error(`${path} is not an ES256 private key; delete it to have a new one generated`);
  }
  const { d, ...publicJwk } = jwk;
  return {
    kid: jwk.kid,
    privateKey: (await importJWK(jwk, SIGNING_ALG)) as CryptoKey,
    publicKey: (await importJWK(publicJwk, SIGNING_ALG)) as CryptoKey,
    formSecret: Buffer.from(hkdfSync("sha256", Buffer.from(d, "base64url"), "", "jobsearch oauth form", 32)),
  };
}

// --- internal ---

function readJwk(path: string): JWK | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as JWK;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`cannot read the OAuth signing key ${path}`, { cause: error });
  }
}

async function createJwk(path: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const jwk = await exportJWK(privateKey);
  jwk.kid = await calculateJwkThumbprint(jwk);
  jwk.alg = SIGNING_ALG;
  // Written aside and linked into place: link fails when the file exists, so two processes starting
  // at once on one DATA_DIR agree on the first key, and nobody ever reads a half-written file.
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temp, `${JSON.stringify(jwk)}\n`, { mode: 0o600 });
  try {
    linkSync(temp, path);
    return jwk;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return readJwk(path)!;
  } finally {
    rmSync(temp, { force: true });
  }
}
