import { describe, expect, test } from "bun:test";
import { backoff, signature } from "../../../server/saved/deliver.ts";
import { checkWebhookTarget, isPublicAddress } from "../../../server/saved/webhook-target.ts";

/** Where a webhook may go, how long a retry waits, and the signature a receiver checks. */

describe("webhook targets", () => {
  test.each([
    ["127.0.0.1", false], ["10.1.2.3", false], ["172.16.0.1", false], ["172.31.255.255", false], ["192.168.1.1", false],
    ["169.254.169.254", false], ["100.64.0.1", false], ["0.0.0.0", false], ["224.0.0.1", false], ["::1", false], ["::", false],
    ["fe80::1", false], ["fd00::1", false], ["::ffff:127.0.0.1", false], ["::ffff:10.0.0.1", false],
    ["93.184.216.34", true], ["172.32.0.1", true], ["8.8.8.8", true], ["2606:4700::1111", true], ["::ffff:8.8.8.8", true],
  ])("%s is public: %p", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  test("loopback and private hosts are refused unless allowed; names are resolved first", async () => {
    await expect(checkWebhookTarget("http://127.0.0.1:8080/hook", false)).rejects.toMatchObject({ code: "INVALID_PARAMETER" });
    await expect(checkWebhookTarget("http://[::1]/hook", false)).rejects.toMatchObject({ code: "INVALID_PARAMETER" });
    await expect(checkWebhookTarget("http://localhost/hook", false)).rejects.toMatchObject({ code: "INVALID_PARAMETER" });
    await expect(checkWebhookTarget("http://169.254.169.254/latest/meta-data", false)).rejects.toMatchObject({ code: "INVALID_PARAMETER" });
    await expect(checkWebhookTarget("http://127.0.0.1:8080/hook", true)).resolves.toBeUndefined();
    await expect(checkWebhookTarget("ftp://example.com/", true)).rejects.toMatchObject({ code: "INVALID_PARAMETER" });
  });
});

describe("retries and signatures", () => {
  test("the wait doubles from the base, at most an hour, within ±25%", () => {
    expect([1, 2, 3, 4].map((n) => backoff(n, 1000, () => 0.5))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoff(40, 1000, () => 0.5)).toBe(3_600_000);
    expect(backoff(1, 1000, () => 0)).toBe(750);
    expect(backoff(1, 1000, () => 1)).toBe(1250);
  });

  test("the signature is HMAC-SHA256 of timestamp.body, hex, prefixed sha256=", () => {
    // echo -n '1700000000.{"a":1}' | openssl dgst -sha256 -hmac secret
    expect(signature("secret", 1700000000, '{"a":1}')).toBe(`sha256=${new Bun.CryptoHasher("sha256", "secret").update('1700000000.{"a":1}').digest("hex")}`);
    expect(signature("secret", 1700000001, '{"a":1}')).not.toBe(signature("secret", 1700000000, '{"a":1}'));
  });
});
