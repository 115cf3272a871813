import { defineCommand } from "citty";
import { openOAuthState } from "../../server/auth/stores.ts";
import { rotateSigningKey } from "../../server/auth/oauth/signing-key.ts";
import { localConfig } from "../local.ts";

const rotateKey = defineCommand({
  meta: {
    name: "rotate-key",
    description:
      "Start signing OAuth access tokens with a new key. Tokens signed with the previous key stay valid until they expire; " +
      "running servers sign with the new key within a minute. Rotate again only after ACCESS_TOKEN_TTL_S.",
  },
  async run() {
    const state = await openOAuthState(localConfig());
    try {
      const { kid, kept } = await rotateSigningKey(state.ring);
      console.log(`new signing key ${kid}${kept ? `; previous key ${kept} still verifies until its tokens expire` : ""} (${state.ring.where})`);
    } finally {
      state.close();
    }
  },
});

export default defineCommand({
  meta: { name: "oauth", description: "The built-in OAuth server's signing key (in Redis with REDIS_URL, else DATA_DIR)." },
  subCommands: { "rotate-key": rotateKey },
});
