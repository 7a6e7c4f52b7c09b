import { hash } from "node:crypto";

export function sha256Hex(data: string | Buffer): string {
  return hash("sha256", data, "hex");
}
