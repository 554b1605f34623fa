/**
 * What a subscriber on another process needs when it starts listening to a session while this process answers
 * in it: the events bus writes a session's answer events for other processes only while one of them listens
 * (events/listeners.ts), and learns of a new listener a moment after it subscribed. Until then, what this
 * process published for the session reached nobody there.
 *
 * So the answer events this process publishes are followed here (what was published, in order), and a session's
 * catch-up is, per answer of it:
 * - under way: its CREATED event as published, then one DELTA with all the text published since: the
 *   subscriber's copy becomes exactly the answer so far, and the DELTAs published from then on follow it;
 * - ended (or updated) at most CATCH_UP_ENDED_MS ago: its last event (it carries the whole message).
 * Answers ended longer ago are in what the subscriber's client reads (the messages query).
 */
import type { EventBus, Topic, Topics } from "../events/bus";
import type { ChatMessageEventPayload } from "./chat.events";

/** an ended answer's last event is replayed to a new listener elsewhere this long (announcements take ms) */
export const CATCH_UP_ENDED_MS = 10_000;
/** answers followed at most (the oldest is forgotten first) */
const FOLLOWED_MAX = 10_000;

interface Followed {
  sessionId: string;
  /** the last event that carried the message (CREATED, an outcome, UPDATED) */
  last: ChatMessageEventPayload | null;
  /** the DELTA text published since `last` */
  text: string;
  /** when its outcome was published (null: under way) */
  endedAt: number | null;
}

/**
 * `bus` with its CHAT_MESSAGE_EVENT publications followed for the catch-up of new listeners on other processes;
 * a bus without listeners elsewhere (one process) is returned as it is. stop() forgets everything.
 */
export function followForCatchUp(bus: EventBus): { events: EventBus; stop(): void } {
  if (!bus.catchUp) return { events: bus, stop: () => undefined };
  const answers = new Map<string, Followed>();

  const follow = (e: ChatMessageEventPayload) => {
    let answer = answers.get(e.messageId);
    if (!answer) {
      if (answers.size >= FOLLOWED_MAX) {
        const oldest = answers.keys().next().value;
        if (oldest !== undefined) answers.delete(oldest);
      }
      answer = { sessionId: e.sessionId, last: null, text: "", endedAt: null };
      answers.set(e.messageId, answer);
    }
    if (e.type === "DELTA") {
      answer.text += e.delta ?? "";
      return;
    }
    answer.last = e;
    answer.text = "";
    answer.endedAt = e.type === "CREATED" ? null : Date.now();
  };

  const catchUp = (sessionId: string): ChatMessageEventPayload[] => {
    const out: ChatMessageEventPayload[] = [];
    const now = Date.now();
    for (const [messageId, answer] of answers) {
      if (answer.endedAt !== null && now - answer.endedAt > CATCH_UP_ENDED_MS) {
        answers.delete(messageId);
        continue;
      }
      if (answer.sessionId !== sessionId) continue;
      if (answer.last) out.push(answer.last);
      if (answer.text && answer.last)
        out.push({
          ...answer.last,
          type: "DELTA",
          delta: answer.text,
          message: null,
          questionParentId: null,
        });
    }
    return out;
  };
  bus.catchUp("CHAT_MESSAGE_EVENT", catchUp);

  // ended answers leave once their catch-up window is over
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [messageId, answer] of answers) {
      if (answer.endedAt !== null && now - answer.endedAt > CATCH_UP_ENDED_MS) answers.delete(messageId);
    }
  }, CATCH_UP_ENDED_MS);
  sweep.unref();

  const events: EventBus = {
    publish<T extends Topic>(topic: T, payload: Topics[T]): void {
      if (topic === "CHAT_MESSAGE_EVENT") follow(payload as ChatMessageEventPayload);
      bus.publish(topic, payload);
    },
    subscribe: (topic) => bus.subscribe(topic),
    listen: bus.listen ? (topic, scope) => bus.listen?.(topic, scope) ?? (() => undefined) : undefined,
    catchUp: (topic, make) => bus.catchUp?.(topic, make),
  };
  return {
    events,
    stop() {
      clearInterval(sweep);
      answers.clear();
    },
  };
}
