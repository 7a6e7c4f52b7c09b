import { expect } from "vitest";
import { ledgerClient, type LedgerClient } from "./ledger-client.ts";

/**
 * Accounts, moves and funded wallets for the tests of balance limits and
 * holds, through the client `clientOf` answers when called (one made in beforeAll).
 */
export function ledgerWallets(clientOf: () => LedgerClient) {
  const key = () => `wallet-${crypto.randomUUID()}`;

  async function account(body: Record<string, unknown>): Promise<string> {
    const created = await clientOf().post("/accounts", {
      name: `acct ${crypto.randomUUID()}`,
      currency: "USD",
      ...body,
    });
    expect(created.status, created.text).toBe(201);
    return created.body.id as string;
  }

  /** A post's body: these amounts on these accounts, under a new key unless one is given. */
  const move = (entries: [string, number][], idempotency_key = key()) => ({
    idempotency_key,
    entries: entries.map(([account_id, amount]) => ({ account_id, amount })),
  });

  const balanceOf = async (id: string) =>
    (await clientOf().get(`/accounts/${id}/balance?as_of=2099-12-31`)).body.balance;

  /** A customer wallet (liability, may not be overdrawn: max_balance 0) holding `funds`, with the bank's cash and a shop. */
  async function fundedWallet(funds: number, bounds: Record<string, unknown> = { max_balance: 0 }) {
    const [wallet, cash, shop] = [
      await account({ type: "liability", ...bounds }),
      await account({ type: "asset" }),
      await account({ type: "income" }),
    ];
    const funded = await clientOf().post(
      "/transactions",
      move([
        [cash, funds],
        [wallet, -funds],
      ]),
    );
    expect(funded.status, funded.text).toBe(201);
    return { wallet, cash, shop };
  }

  /**
   * 64 spends of 10 from a new wallet holding 100, sent at once through the
   * servers at `urls` in turn, each body made by `bodyOf` (a post's, a
   * hold's); the wallet, and the answers' statuses in order.
   */
  async function raceSpends(urls: string[], bodyOf: (entries: [string, number][]) => unknown) {
    const clients = urls.map((url) => ledgerClient(url));
    const { wallet, shop } = await fundedWallet(100);
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        clients[i % clients.length]!.post(
          "/transactions",
          bodyOf([
            [wallet, 10],
            [shop, -10],
          ]),
        ),
      ),
    );
    return { wallet, statuses: answers.map((a) => a.status).sort() };
  }

  return { key, account, move, balanceOf, fundedWallet, raceSpends };
}
