/**
 * CPU per DELTA delivered to a websocket subscriber (the server side of streaming), in one process: an app
 * (startTestApp), `--subscribers` graphql-ws clients on one session, `--deltas` DELTAs published on the bus, each
 * once the previous one has reached every client (nothing merges). Prints CPU µs per DELTA (server + clients;
 * the clients only count frames).
 *   npx tsx bench/stream-delivery.ts --deltas 3000 --subscribers 1
 */
import { performance } from "node:perf_hooks";
import type { ChatMessageEventPayload } from "../api/src/chat/chat.events";
import { gqlOk, Q, wsClient } from "../api/src/chat/chat.test-helpers";
import { startTestApp } from "../api/src/testing/app";
import { createVerifiedUser } from "../api/src/testing/client";
import { arg } from "./load";

const deltas = arg("deltas", 3000);
const subscribers = arg("subscribers", 1);

async function main(): Promise<void> {
  const app = await startTestApp();
  const alice = await createVerifiedUser(app);
  const sessionId = (await gqlOk(app, Q.create, {}, alice.token)).createSession.sessionId as string;
  const clients = Array.from({ length: subscribers }, () => wsClient(app, alice.token));
  // a cheap client: count the frames, wake the publisher when every client has the one it waits for
  const received = clients.map(() => 0);
  let want = 0;
  let wake: (() => void) | null = null;
  const disposers = clients.map((client, c) =>
    client.subscribe(
      { query: Q.events, variables: { sessionId } },
      {
        next: () => {
          received[c]++;
          if (wake && received.every((n) => n >= want)) {
            const w = wake;
            wake = null;
            w();
          }
        },
        error: (err) => console.error(err),
        complete: () => undefined,
      },
    ),
  );
  while (app.services.chat.subscriberCount() < subscribers) await new Promise((r) => setTimeout(r, 20));
  const run = async (n: number, messageId: string) => {
    for (let i = 0; i < n; i++) {
      const payload: ChatMessageEventPayload = {
        type: "DELTA",
        sessionId,
        userId: alice.user.id,
        messageId,
        delta: "tok",
        message: null,
      };
      want = received[0] + 1;
      const arrived = new Promise<void>((resolve) => {
        wake = resolve;
      });
      app.services.events.publish("CHAT_MESSAGE_EVENT", payload);
      await arrived;
    }
  };
  await run(500, "000000000000000000000001"); // warm-up
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await run(deltas, "000000000000000000000002");
  const cpu = process.cpuUsage(cpu0);
  const wall = performance.now() - t0;
  console.log(
    `${deltas} DELTAs × ${subscribers} subscriber(s): ${((cpu.user + cpu.system) / deltas).toFixed(0)} µs CPU per DELTA (server + clients), ${((wall * 1000) / deltas).toFixed(0)} µs wall`,
  );
  for (const d of disposers) d();
  await Promise.all(clients.map((c) => c.dispose()));
  await app.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
