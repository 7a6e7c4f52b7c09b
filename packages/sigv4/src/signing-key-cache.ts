import { createHmac } from "node:crypto";

/**
 * SigV4 signing keys, derived once per secret and credential scope (four
 * HMACs) and then reused: a key changes only with the date, so a busy client
 * needs one derivation a day. At most `limit` keys are kept; past that the
 * oldest goes first.
 */
export interface SigningKeyCache {
  signingKey(secret: string, date: string, region: string, service: string): Buffer;
  readonly size: number;
}

export function createSigningKeyCache(limit = 1_000): SigningKeyCache {
  // Keyed by the secret itself (already in this process's memory), so a changed secret never reuses a key.
  const keys = new Map<string, Buffer>();
  return {
    signingKey(secret, date, region, service) {
      const id = `${date}/${region}/${service}\n${secret}`;
      let key = keys.get(id);
      if (!key) {
        key = deriveSigningKey(secret, date, region, service);
        if (keys.size >= limit) keys.delete(keys.keys().next().value!);
        keys.set(id, key);
      }
      return key;
    },
    get size() {
      return keys.size;
    },
  };
}

export function deriveSigningKey(secret: string, date: string, region: string, service: string): Buffer {
  const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), "aws4_request");
}
