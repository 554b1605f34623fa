/**
 * REST compatibility for the chat (spec §7). Old clients poll GET /chat/messages every 2 s after POSTing a
 * question: the answer appears in the list only when it is done (complete, stopped or error).
 */
import { type Request, Router } from "express";
import { Errors } from "../errors";
import { requireUser, signedIn } from "../rest/auth-middleware";
import { readBody, readQueryString } from "../rest/validate";
import type { Services } from "../services";
import { MESSAGE_PAGE_MAX } from "./chat.pages";
import { presentMessageRest, presentSessionRest } from "./chat.presenter";
import type { ChatScopeInput } from "./chat.scope";

/** The session id from the path or ?sessionId= (also ?session_id=). */
function sessionIdOf(req: Request): string {
  const fromPath = typeof req.params.sessionId === "string" ? req.params.sessionId : undefined;
  const id = fromPath ?? readQueryString(req.query, "sessionId") ?? readQueryString(req.query, "session_id");
  if (!id) throw Errors.invalidField("sessionId", "chat.sessionIdRequired");
  return id;
}

/** ?limit=: a whole number (clamped by the service), absent, or INVALID_INPUT. */
function limitOf(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (!/^-?\d{1,9}$/.test(raw)) {
    throw Errors.invalidField("limit", "chat.pageLimitInvalid", { max: MESSAGE_PAGE_MAX });
  }
  return Number(raw);
}

export function chatRestRouter(services: Services): Router {
  const r = Router();
  // the signed-in user's id, from the cached account: no user document is made for a chat request
  const uid = (res: Parameters<typeof signedIn>[0]) => String(signedIn(res).identity._id);

  r.get("/chat/sessions", requireUser, async (_req, res) => {
    const sessions = await services.chat.listSessions(uid(res));
    res.json(sessions.map(presentSessionRest));
  });

  r.post("/chat/sessions/new", requireUser, async (req, res) => {
    const { title } = readBody(req.body ?? {}, { title: "string?" });
    const session = await services.chat.createSession(uid(res), title);
    res.status(201).json(presentSessionRest(session));
  });

  // a page of the shown branch (chat.pages.ts): the newest, or ?before=<message id>; ?limit= is clamped
  const listMessages = async (req: Request, res: Parameters<typeof signedIn>[0]) => {
    const messages = await services.chat.listMessages(uid(res), sessionIdOf(req), {
      before: readQueryString(req.query, "before"),
      limit: limitOf(readQueryString(req.query, "limit")),
      includeInProgress: false,
    });
    res.json(messages.map(presentMessageRest));
  };
  r.get("/chat/messages", requireUser, listMessages);
  r.get("/chat/messages/:sessionId", requireUser, listMessages);

  r.post("/chat/messages", requireUser, async (req, res) => {
    // userId from the client is ignored: the signed-in user sends; content is checked by the service's rule
    const { sessionId, role } = readBody(req.body, { sessionId: "string", role: "string?" });
    if (role !== undefined && role !== "user") {
      throw Errors.invalidField("role", "chat.onlyUserRole");
    }
    if (!sessionId) throw Errors.invalidField("sessionId", "chat.sessionIdRequired");
    const sent = await services.chat.sendMessage(
      uid(res),
      sessionId,
      (req.body as Record<string, unknown>).content,
      scopeOf((req.body as Record<string, unknown>).scope),
    );
    res.status(201).json(presentMessageRest(sent.userMessage));
  });

  // branches (chat.branches.ts): another user's or an unknown message id answers 404 alike
  const messageIdOf = (req: Request) => String(req.params.messageId);
  r.post("/chat/messages/:messageId/edit", requireUser, async (req, res) => {
    const sent = await services.chat.editMessage(
      uid(res),
      messageIdOf(req),
      (req.body as Record<string, unknown> | undefined)?.content,
    );
    res.status(201).json(presentMessageRest(sent.userMessage));
  });
  r.post("/chat/messages/:messageId/regenerate", requireUser, async (req, res) => {
    const answer = await services.chat.regenerateMessage(uid(res), messageIdOf(req));
    res.status(201).json(presentMessageRest(answer));
  });
  r.post("/chat/messages/:messageId/switch", requireUser, async (req, res) => {
    const thread = await services.chat.switchBranch(uid(res), messageIdOf(req));
    res.json(thread.map(presentMessageRest));
  });
  // the scope of a session's questions (kept until changed): { kind, category?, articleIds? }
  r.put("/chat/sessions/:sessionId/scope", requireUser, async (req, res) => {
    const session = await services.chat.setChatScope(uid(res), sessionIdOf(req), req.body ?? {});
    res.json(presentSessionRest(session));
  });

  return r;
}

/** An optional scope in a request body: an object, else none. */
function scopeOf(raw: unknown): ChatScopeInput | undefined {
  return raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as ChatScopeInput) : undefined;
}
