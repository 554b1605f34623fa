import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { Markdown } from "../../../components/Markdown";
import { plainAnnouncement } from "./announce";
import { citationLinks } from "./citations";
import { markdownFileName } from "./download";
import { groupSessions } from "./groupSessions";
import {
  addStarted,
  applyEvent,
  bareMessage,
  hasEarlier,
  type Message,
  type MessageEvent,
  mergePolled,
  prependEarlier,
  rememberParents,
} from "./messages";
import { type PendingAnswer, pendingRowKey, withPending } from "./pending";
import { shownSessionTitle } from "./sessionTitle";

const msg = (over: Partial<Message>): Message =>
  bareMessage({
    id: "a1",
    sessionId: "s1",
    role: "assistant",
    content: "",
    timestamp: "2026-01-01T10:00:00Z",
    status: "pending",
    replyTo: "u1",
    ...over,
  });

describe("chat: message state", () => {
  it("should keep a message's alternatives when a live event replaces it, and leave out other branches", () => {
    const shown = [
      msg({ id: "u1", role: "user", status: null }),
      msg({ parentId: "u1", siblingIndex: 2, siblingCount: 2, siblingIds: ["a0", "a1"] }),
    ];
    const done = msg({ parentId: "u1", status: "complete", content: "Svar", followUps: ["Hvad med ferie?"] });
    const after = applyEvent(shown, {
      type: "COMPLETED",
      sessionId: "s1",
      messageId: "a1",
      delta: null,
      questionParentId: null,
      message: done,
    });
    expect(after[1]).toMatchObject({
      status: "complete",
      siblingIndex: 2,
      siblingCount: 2,
      followUps: ["Hvad med ferie?"],
    });
    // an answer of the branch put aside (its question is not shown) does not join the list
    const other = msg({ id: "a9", parentId: "u0", status: "complete" });
    expect(
      applyEvent(after, {
        type: "COMPLETED",
        sessionId: "s1",
        messageId: "a9",
        delta: null,
        questionParentId: null,
        message: other,
      }),
    ).toHaveLength(2);
  });

  it("should take a finished answer's new follow-ups (UPDATED), only for an answer already listed", () => {
    const done = msg({ status: "complete", content: "Svar", followUps: ["Hvad står der om ferie?"] });
    const list = [
      msg({ id: "u1", role: "user", status: null }),
      { ...done, parentId: "u1", siblingCount: 1 },
    ];
    const updated = { ...done, parentId: "u1", followUps: ["Hvem optjener ferie?"] };
    const after = applyEvent(list, {
      type: "UPDATED",
      sessionId: "s1",
      messageId: "a1",
      delta: null,
      questionParentId: null,
      message: updated,
    });
    expect(after[1]).toMatchObject({ followUps: ["Hvem optjener ferie?"], siblingCount: 1 });
    // an answer not shown (another branch, or a session reloaded meanwhile) is not added by its update
    const other = { ...updated, id: "a9", parentId: "a1" };
    expect(
      applyEvent(list, {
        type: "UPDATED",
        sessionId: "s1",
        messageId: "a9",
        delta: null,
        questionParentId: null,
        message: other,
      }),
    ).toBe(list);
  });

  it("should append streamed tokens to the answer in progress", () => {
    let list = [msg({})];
    list = applyEvent(list, {
      type: "DELTA",
      sessionId: "s1",
      messageId: "a1",
      delta: "Hej ",
      questionParentId: null,
      message: null,
    });
    list = applyEvent(list, {
      type: "DELTA",
      sessionId: "s1",
      messageId: "a1",
      delta: "du",
      questionParentId: null,
      message: null,
    });
    expect(list[0]).toMatchObject({ content: "Hej du", status: "streaming" });
    const done = msg({ content: "Hej du!", status: "complete" });
    list = applyEvent(list, {
      type: "COMPLETED",
      sessionId: "s1",
      messageId: "a1",
      delta: null,
      questionParentId: null,
      message: done,
    });
    expect(list[0]).toBe(done);
    // a late token does not touch a finished answer
    expect(
      applyEvent(list, {
        type: "DELTA",
        sessionId: "s1",
        messageId: "a1",
        delta: "x",
        questionParentId: null,
        message: null,
      })[0],
    ).toBe(done);
  });

  it("should take a catch-up (the answer's CREATED again, then one DELTA of its text so far) as the whole text", () => {
    // what a subscriber on another process than the answering one gets when it appears mid-answer
    // (api chat.catch-up.ts): its list may hold an older copy of the answer (loaded, with text saved earlier)
    const question = msg({ id: "u1", role: "user", content: "Frist?", status: "complete", replyTo: null });
    const pending = msg({ parentId: "u1" });
    for (const start of [
      [question, msg({ parentId: "u1", content: "Hej", status: "streaming" })],
      [question],
    ]) {
      let list = applyEvent(start, {
        type: "CREATED",
        sessionId: "s1",
        messageId: "a1",
        delta: null,
        questionParentId: null,
        message: pending,
      });
      list = applyEvent(list, {
        type: "DELTA",
        sessionId: "s1",
        messageId: "a1",
        delta: "Hej du",
        questionParentId: null,
        message: null,
      });
      list = applyEvent(list, {
        type: "DELTA",
        sessionId: "s1",
        messageId: "a1",
        delta: "!",
        questionParentId: null,
        message: null,
      });
      expect(list.map((m) => [m.id, m.content])).toEqual([
        ["u1", "Frist?"],
        ["a1", "Hej du!"],
      ]);
    }
  });

  it("should not let a slow poll undo a finished answer or shorten streamed text", () => {
    const finished = msg({ status: "error", content: "" });
    expect(mergePolled([finished], [msg({ status: "pending" })])[0]).toBe(finished);
    const streamed = msg({ status: "streaming", content: "Hej du" });
    expect(mergePolled([streamed], [msg({ status: "streaming", content: "Hej" })])[0]).toBe(streamed);
    const done = msg({ status: "complete", content: "Hej du!" });
    expect(mergePolled([streamed], [done])[0]).toBe(done);
  });
});

describe("chat: a long session in pages", () => {
  /** a linear branch m0 … m(n-1), each the parent of the next */
  const branch = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, k) => {
      const i = from + k;
      return msg({
        id: `m${i}`,
        parentId: i === 0 ? null : `m${i - 1}`,
        status: "complete",
        content: `${i}`,
      });
    });
  const ids = (list: Message[]) => list.map((m) => m.id);

  it("should know earlier messages exist until the branch's first message is listed", () => {
    expect(hasEarlier(branch(150, 200))).toBe(true);
    expect(hasEarlier(branch(0, 50))).toBe(false);
    expect(hasEarlier([])).toBe(false);
  });

  it("should put earlier pages before the list in order, with no gaps or repeats, and drop a page that no longer fits", () => {
    let list = branch(150, 200);
    list = prependEarlier(list, branch(50, 150)) ?? [];
    list = prependEarlier(list, branch(0, 50)) ?? [];
    expect(ids(list)).toEqual(ids(branch(0, 200)));
    expect(hasEarlier(list)).toBe(false);
    // the list changed meanwhile (another branch shown): the page does not end before its first message
    expect(prependEarlier(branch(150, 200), branch(0, 50))).toBeNull();
  });

  it("should keep the earlier pages when the newest page is polled, and take a new branch's page whole", () => {
    const local = branch(0, 200);
    const polled = branch(150, 200).map((m) => (m.id === "m199" ? { ...m, content: "ny" } : m));
    const merged = mergePolled(local, polled);
    expect(ids(merged)).toEqual(ids(local));
    expect(merged.at(-1)?.content).toBe("ny");
    const other = [msg({ id: "x1", parentId: "m99", status: "complete" })];
    expect(ids(mergePolled(local, other))).toEqual(["x1"]);
  });
});

describe("chat: an answer whose events come before the send's response", () => {
  const question = msg({ id: "u2", role: "user", status: null, content: "Og ferie?" });
  const pending = msg({ id: "a2", parentId: "u2", replyTo: "u2", siblingIndex: 1, siblingCount: 1 });
  const earlier = [
    msg({ id: "u1", role: "user", status: null }),
    msg({ parentId: "u1", status: "complete" }),
  ];
  const event = (type: "CREATED" | "COMPLETED", message: Message) =>
    ({ type, sessionId: "s1", messageId: message.id, delta: null, questionParentId: null, message }) as const;

  it("should put the question before its answer and keep the answer's live progress", () => {
    // CREATED and COMPLETED arrive over the websocket first (a loaded machine), then the send's response
    let list = applyEvent(earlier, event("CREATED", msg({ id: "a2", parentId: "u2" })));
    const done = msg({ id: "a2", parentId: "u2", status: "complete", content: "Svar", followUps: ["Hvad?"] });
    list = applyEvent(list, event("COMPLETED", done));
    list = addStarted(list, undefined, question, pending);
    expect(list.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2"]);
    // the answer is still the complete one (with its follow-ups), now with its place among the alternatives
    expect(list[3]).toMatchObject({ status: "complete", followUps: ["Hvad?"], siblingCount: 1 });
  });

  it("should keep the order when only CREATED came first, so the answer stays the newest message", () => {
    let list = applyEvent(earlier, event("CREATED", msg({ id: "a2", parentId: "u2" })));
    list = addStarted(list, undefined, question, pending);
    list = applyEvent(list, event("COMPLETED", msg({ id: "a2", parentId: "u2", status: "complete" })));
    expect(list.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(list.at(-1)?.status).toBe("complete");
  });

  it("should replace the shown branch from an edited question on, keeping a live copy of the new answer", () => {
    const edited = msg({ id: "u3", role: "user", status: null, parentId: null });
    let list = applyEvent(earlier, event("CREATED", msg({ id: "a3", parentId: "u3" })));
    const streaming = msg({ id: "a3", parentId: "u3", status: "streaming", content: "Sv" });
    list = list.map((m) => (m.id === "a3" ? streaming : m));
    list = addStarted(list, "u1", edited, msg({ id: "a3", parentId: "u3" }));
    expect(list.map((m) => m.id)).toEqual(["u3", "a3"]);
    expect(list[1]).toMatchObject({ status: "streaming", content: "Sv" });
  });
});

describe("chat: a regenerated or edited answer whose tokens come before the mutation's response", () => {
  const shownList = [
    msg({ id: "u1", role: "user", status: null, content: "Første?" }),
    msg({ id: "a1", parentId: "u1", status: "complete", content: "Gammelt svar" }),
    msg({ id: "u2", role: "user", status: null, parentId: "a1" }),
    msg({ id: "a2", parentId: "u2", status: "complete" }),
  ];
  // questionParentId: where the answer's question hangs (the API tells it with CREATED; null: a first question)
  const created = (message: Message, questionParentId: string | null = null) =>
    ({
      type: "CREATED",
      sessionId: "s1",
      messageId: message.id,
      delta: null,
      questionParentId,
      message,
    }) as const;
  const delta = (messageId: string, text: string) =>
    ({
      type: "DELTA",
      sessionId: "s1",
      messageId,
      delta: text,
      questionParentId: null,
      message: null,
    }) as const;

  it("should show a regeneration's answer from its CREATED on and keep every token until the response", () => {
    let list = applyEvent(shownList, created(msg({ id: "a3", parentId: "u1" })));
    // the server shows the new answer from now on: what came after its question gives way
    expect(list.map((m) => m.id)).toEqual(["u1", "a3"]);
    list = applyEvent(list, delta("a3", "Første "));
    list = applyEvent(list, delta("a3", "ord"));
    const response = msg({
      id: "a3",
      parentId: "u1",
      siblingIndex: 1,
      siblingCount: 2,
      siblingIds: ["a1", "a3"],
    });
    list = addStarted(list, "a1", response);
    expect(list.map((m) => m.id)).toEqual(["u1", "a3"]);
    expect(list[1]).toMatchObject({ status: "streaming", content: "Første ord", siblingCount: 2 });
  });

  it("should keep the branch the user switched back to when a reconnect's catch-up brings the new answer again", () => {
    // regenerate a1: the new answer a3 streams, the response gives its place (2 / 2)
    let list = applyEvent(shownList, created(msg({ id: "a3", parentId: "u1" })));
    list = addStarted(
      list,
      "a1",
      msg({ id: "a3", parentId: "u1", siblingIndex: 1, siblingCount: 2, siblingIds: ["a1", "a3"] }),
    );
    // "‹": switchBranch answers the old branch, its places exact
    const old = shownList.map((m) =>
      m.id === "a1" ? { ...m, siblingIndex: 0, siblingCount: 2, siblingIds: ["a1", "a3"] } : m,
    );
    list = addStarted(list, null, ...old);
    // the websocket reconnects (on another process): the catch-up is a3's CREATED as published, one DELTA, then
    // its outcome
    const before = list;
    list = applyEvent(list, created(msg({ id: "a3", parentId: "u1" })));
    list = applyEvent(list, delta("a3", "Første ord"));
    list = applyEvent(list, {
      ...created(msg({ id: "a3", parentId: "u1", status: "complete" })),
      type: "COMPLETED",
    });
    expect(list).toBe(before);
    expect(list.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2"]);

    // an edit of u1 (u6 and its answer a6), then "‹" on the question: a6's CREATED again stays out too
    const edited = shownList.map((m) =>
      m.id === "u1" ? { ...m, siblingIndex: 0, siblingCount: 2, siblingIds: ["u1", "u6"] } : m,
    );
    expect(applyEvent(edited, created(msg({ id: "a6", parentId: "u6" })))).toBe(edited);
  });

  it("should still leave out an answer of a branch not shown, replace a regenerated last answer and append a send's", () => {
    const offBranch = msg({ id: "a9", parentId: "u9", status: "complete" });
    const completed = { ...created(offBranch), type: "COMPLETED" } as const;
    expect(applyEvent(shownList, completed)).toBe(shownList);
    // regenerating the last answer: it gives way to the new one
    const again = applyEvent(shownList, created(msg({ id: "a4", parentId: "u2" })));
    expect(again.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a4"]);
    // a send's answer whose question (under the last listed answer) is not listed yet goes after the list
    const sent = applyEvent(shownList, created(msg({ id: "a5", parentId: "u5" }), "a2"));
    expect(sent.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2", "a5"]);
  });

  it("should keep out a reconnect's answer whose question hangs further down a branch not shown", () => {
    // u1 edited (u6, answered a6), then a follow-up u7 whose answer a7 still streams; "‹" on the question shows
    // u1's branch again. What was listed is remembered (the hook does it before every change of the list).
    const ancestry = new Map<string, string | null>();
    const editedBranch = [
      msg({
        id: "u6",
        role: "user",
        status: null,
        siblingIndex: 1,
        siblingCount: 2,
        siblingIds: ["u1", "u6"],
      }),
      msg({ id: "a6", parentId: "u6", status: "complete" }),
      msg({ id: "u7", role: "user", status: null, parentId: "a6" }),
      msg({ id: "a7", parentId: "u7", status: "streaming" }),
    ];
    rememberParents(ancestry, editedBranch);
    const old = shownList.map((m) =>
      m.id === "u1" ? { ...m, siblingIndex: 0, siblingCount: 2, siblingIds: ["u1", "u6"] } : m,
    );
    let list = addStarted(editedBranch, null, ...old);
    rememberParents(ancestry, list);
    // the catch-up: a7's CREATED (its question u7 is two levels below u6, the alternative of the listed u1)
    const before = list;
    list = applyEvent(list, created(msg({ id: "a7", parentId: "u7" })), ancestry);
    list = applyEvent(list, delta("a7", "Svar"), ancestry);
    list = applyEvent(
      list,
      { ...created(msg({ id: "a7", parentId: "u7", status: "complete" })), type: "COMPLETED" },
      ancestry,
    );
    expect(list).toBe(before);
    expect(list.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2"]);
    // without the alternatives listed (places unknown): u9 hangs under a1, the listed u2 has it as its alternative
    ancestry.set("u9", "a1");
    expect(applyEvent(shownList, created(msg({ id: "a9", parentId: "u9" })), ancestry)).toBe(shownList);
    // a question under the last listed message, or one the client never saw, continues the shown branch
    ancestry.set("u5", "a2");
    const sent = applyEvent(shownList, created(msg({ id: "a5", parentId: "u5" })), ancestry);
    expect(sent.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2", "a5"]);
    const unknown = applyEvent(shownList, created(msg({ id: "a8", parentId: "u8" }), "a2"), ancestry);
    expect(unknown.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2", "a8"]);
  });

  // After a reload the list is the server's page (ChatMessages: the shown branch, oldest first, every message with
  // its tree parent and its siblingIds), and the ancestry knows only those messages (useChatMessages seeds it from
  // the list): what is not listed is known by the listed messages' alternatives alone.
  const reloaded = () => {
    const list = [
      msg({
        id: "u1",
        role: "user",
        status: null,
        siblingIndex: 1,
        siblingCount: 2,
        siblingIds: ["u1", "u6"],
      }),
      msg({
        id: "a1",
        parentId: "u1",
        status: "complete",
        siblingIndex: 1,
        siblingCount: 2,
        siblingIds: ["a1", "a3"],
      }),
      msg({
        id: "u2",
        role: "user",
        status: null,
        parentId: "a1",
        siblingIndex: 1,
        siblingCount: 1,
        siblingIds: ["u2"],
      }),
      msg({
        id: "a2",
        parentId: "u2",
        status: "complete",
        siblingIndex: 1,
        siblingCount: 1,
        siblingIds: ["a2"],
      }),
    ];
    const ancestry = new Map<string, string | null>();
    rememberParents(ancestry, list);
    return { list, ancestry };
  };
  const applyLive = (list: Message[], ancestry: Map<string, string | null>, e: MessageEvent) => {
    if (e.message) rememberParents(ancestry, [e.message]);
    return applyEvent(list, e, ancestry);
  };

  it("should, after a reload, keep out answers one level below an alternative and append a new send's answer", () => {
    const { list, ancestry } = reloaded();
    // a3: a regeneration of a1 still under way; a6: the answer of u6, the edit of u1
    expect(applyLive(list, ancestry, created(msg({ id: "a3", parentId: "u1" })))).toBe(list);
    expect(applyLive(list, ancestry, created(msg({ id: "a6", parentId: "u6" })))).toBe(list);
    const done = {
      ...created(msg({ id: "a6", parentId: "u6", status: "complete" })),
      type: "COMPLETED",
    } as const;
    expect(applyLive(list, ancestry, done)).toBe(list);
    // a send's answer whose question (u5, under a2) is not listed yet still goes after the list
    const sent = applyLive(list, ancestry, created(msg({ id: "a5", parentId: "u5" }), "a2"));
    expect(sent.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2", "a5"]);
  });

  // Live, the ancestry knows u7 → a6 → u6 (they were listed before "‹"); after a reload it does not. Only a
  // catch-up replays an under-way answer's CREATED (several processes, api chat.catch-up.ts); it says where the
  // answer's question hangs (questionParentId): under a6, which the list neither shows nor has as the parent of a
  // listed message, so not a new send's or edit's.
  it("should, after a reload, keep out a catch-up's answer two levels below an alternative", () => {
    const { list, ancestry } = reloaded();
    expect(applyLive(list, ancestry, created(msg({ id: "a7", parentId: "u7" }), "a6"))).toBe(list);
    // a question under a message above the page, or under another branch's answer, is not on the shown one either
    expect(applyLive(list, ancestry, created(msg({ id: "a8", parentId: "u8" }), "a0"))).toBe(list);
    expect(applyLive(list, ancestry, created(msg({ id: "a9", parentId: "u9" }), "a3"))).toBe(list);
    // an edit of u2 (its question u10 beside u2, under a1) is shown, as is a send's (under a2)
    const edited = applyLive(list, ancestry, created(msg({ id: "a10", parentId: "u10" }), "a1"));
    expect(edited.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2", "a10"]);
    const sent = applyLive(list, ancestry, created(msg({ id: "a11", parentId: "u11" }), "a2"));
    expect(sent.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2", "a11"]);
  });

  it("should show an edit's answer, whose question is not listed yet, in place of the waiting stand-in", () => {
    const p: PendingAnswer = {
      key: "8",
      sessionId: "s1",
      before: new Set(shownList.map((m) => m.id)),
      after: "u1",
      question: null,
    };
    let list = applyEvent(shownList, created(msg({ id: "a6", parentId: "u6" })));
    list = applyEvent(list, delta("a6", "Nyt svar"));
    const early = withPending(list, p);
    expect(early.messages.map((m) => [m.id, m.content])).toEqual([
      ["u1", "Første?"],
      ["a6", "Nyt svar"],
    ]);
    expect(early.keys.get("a6")).toBe(pendingRowKey(p, "assistant"));
  });
});

describe("chat: session groups", () => {
  it("should group by today, yesterday, the last 7 days and month", () => {
    const now = new Date(2026, 10, 25, 12, 0);
    const at = (d: number, h = 9) => ({ lastUpdated: new Date(2026, 10, d, h).toISOString() });
    const groups = groupSessions([at(25), at(24, 23), at(24, 1), at(20), at(19), at(18), at(2)], now);
    expect(groups.map((g) => [g.key, g.sessions.length])).toEqual([
      ["today", 1],
      ["yesterday", 2],
      ["week", 2],
      ["older", 2],
    ]);
    expect(groups[3].month?.getMonth()).toBe(10);
  });
});

describe("chat: a session's shown title", () => {
  it("should show a session the API calls untitled in the reader's language, any other by its title as it is", () => {
    expect(shownSessionTitle({ title: "Ny chat", untitled: true }, "New chat")).toBe("New chat");
    expect(shownSessionTitle({ title: "Ny chat", untitled: true }, "Ny chat")).toBe("Ny chat");
    expect(shownSessionTitle({ title: null, untitled: true }, "New chat")).toBe("New chat");
    expect(shownSessionTitle(null, "New chat")).toBe("New chat");
    expect(shownSessionTitle({ title: "Ny chat om ferie", untitled: false }, "New chat")).toBe(
      "Ny chat om ferie",
    );
    expect(shownSessionTitle({ title: "ny chat", untitled: false }, "New chat")).toBe("ny chat");
  });
});

describe("chat: citations", () => {
  const citations = [
    {
      number: 1,
      articleId: "abc",
      title: "Klager",
      headingPath: ["Klager", "Klagefristen"],
      heading: "Klager › Klagefristen",
    },
  ];
  it("should turn known [n] markers into links to the cited heading, leaving code and unknown numbers alone", () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <Markdown remarkPlugins={[citationLinks(citations)]}>{"Fire uger [1] og [7]. `[1]`"}</Markdown>
      </MemoryRouter>,
    );
    expect(html).toContain('href="/knowledge?article=abc#h-klagefristen"');
    expect(html).toContain('title="Klager › Klagefristen"');
    expect(html).toContain("[7]");
    expect(html).toContain("<code>[1]</code>");
  });

  it("should announce plain text and name export files safely", () => {
    expect(plainAnnouncement("**Fire uger** [1] fra [afgørelsen](https://x.dk).")).toBe(
      "Fire uger fra afgørelsen.",
    );
    expect(markdownFileName("Budget/og: regnskab")).toBe("Budget-og-regnskab.md");
    expect(markdownFileName("???")).toBe("samtale.md");
  });
});

const shown = [
  msg({ id: "u1", role: "user", status: null, content: "Første?" }),
  msg({ id: "a1", parentId: "u1", content: "Svar 1", status: "complete" }),
];
const pending = (over: Partial<PendingAnswer> = {}): PendingAnswer => ({
  key: "7",
  sessionId: "s1",
  before: new Set(shown.map((m) => m.id)),
  question: "Hvad er klagefristen?",
  ...over,
});
const view = (list: Message[], p: PendingAnswer | null) =>
  withPending(list, p).messages.map((m) => [m.id, m.role, m.status, m.content]);

describe("chat: the answer being started (stand-ins until the mutation answers)", () => {
  it("should show the sent question and a waiting answer after the list, until the real ones join", () => {
    const p = pending();
    expect(view(shown, p).slice(2)).toEqual([
      ["pending:7:user", "user", null, "Hvad er klagefristen?"],
      ["pending:7:assistant", "assistant", "pending", ""],
    ]);
    // the answer's CREATED event came before the send's response: it takes the stand-in's place (and row key),
    // the question's stand-in stays before it
    const created = [...shown, msg({ id: "a2", parentId: "u2", status: "pending" })];
    const early = withPending(created, p);
    expect(early.messages.map((m) => m.id)).toEqual(["u1", "a1", "pending:7:user", "a2"]);
    expect(early.keys.get("a2")).toBe(pendingRowKey(p, "assistant"));
    // the session's messages loaded with both (a new session): no stand-in is left, no message twice
    const loaded = [
      ...shown,
      msg({ id: "u2", role: "user", status: null, content: "Hvad er klagefristen?", parentId: "a1" }),
      msg({ id: "a2", status: "streaming", parentId: "u2" }),
    ];
    expect(withPending(loaded, p).messages.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(withPending(loaded, null).messages).toBe(loaded);
  });

  it("should keep messages that arrived meanwhile and are not the send's (a load, an earlier page)", () => {
    // sent before the session's messages had loaded: they are all unknown to the send, and stay
    const early = pending({ before: new Set() });
    expect(view(shown, early).map((r) => r[0])).toEqual([
      "u1",
      "a1",
      "pending:7:user",
      "pending:7:assistant",
    ]);
    // an earlier page put before the list while it waits: a question there is not the one sent
    const earlier = [
      msg({ id: "u0", role: "user", status: null, content: "Hvad er klagefristen?" }),
      ...shown,
    ];
    expect(view(earlier, pending()).map((r) => r[0])).toEqual([
      "u0",
      "u1",
      "a1",
      "pending:7:user",
      "pending:7:assistant",
    ]);
  });

  it("should show a new session's first question alone with the waiting answer", () => {
    expect(view([], pending({ sessionId: null, before: new Set() }))).toEqual([
      ["pending:7:user", "user", null, "Hvad er klagefristen?"],
      ["pending:7:assistant", "assistant", "pending", ""],
    ]);
  });

  it("should replace a regenerated answer, keep an edited question (its editor) and wait again on a retry", () => {
    expect(view(shown, pending({ from: "a1", question: null }))).toEqual([
      ["u1", "user", null, "Første?"],
      ["pending:7:assistant", "assistant", "pending", ""],
    ]);
    // the regenerated answer listed before the response (its parent is the same question): it takes the place
    const regenerated = [...shown, msg({ id: "a3", parentId: "u1", status: "streaming", content: "Nyt" })];
    const again = withPending(regenerated, pending({ from: "a1", question: null, parent: "u1" }));
    expect(again.messages.map((m) => m.id)).toEqual(["u1", "a3"]);
    expect(again.keys.get("a3")).toBe("pending:7:assistant");
    expect(view(shown, pending({ after: "u1", question: null })).map((r) => r[0])).toEqual([
      "u1",
      "pending:7:assistant",
    ]);
    const failed = [shown[0] as Message, msg({ id: "a1", status: "error", content: "x", error: null })];
    const retry = withPending(failed, pending({ from: "a1", question: null, retry: true }));
    expect(retry.messages[1]).toMatchObject({ id: "a1", status: "pending", content: "" });
    // a retried answer keeps its id and row
    expect(retry.keys.size).toBe(0);
  });
});
