import { CHAT_SESSIONS_PER_USER_MAX, formatMessage } from "@vidensbank/shared";
import { describe, expect, it } from "vitest";
import { serverMessageText } from "../i18n/serverMessage";
import { type AppError, failureToast } from "./errors";

const refusal = (code: string, key: string, params: Record<string, number>): AppError => ({
  serverMessage: { key, params, text: formatMessage(key as "chat.sessionLimit", params, "da") },
  code,
  fields: [],
  network: false,
});

describe("web: a failed action's toast", () => {
  it("should lead with the session limit's own text, naming the limit, in Danish and English", () => {
    const limit = refusal("CHAT_SESSION_LIMIT", "chat.sessionLimit", { max: CHAT_SESSIONS_PER_USER_MAX });
    expect(failureToast("Handlingen mislykkedes", limit, (m) => serverMessageText(m ?? {}, "da"))).toEqual({
      title:
        "Du har 1.000 samtaler, som er det højeste antal. Slet nogle gamle samtaler for at starte en ny.",
      description: null,
    });
    expect(failureToast("The action failed", limit, (m) => serverMessageText(m ?? {}, "en"))).toEqual({
      title:
        "You have 1,000 conversations, which is the most allowed. Delete some old conversations to start a new one.",
      description: null,
    });
  });

  it("should keep the action's title over any other server message", () => {
    const other = refusal("NOT_FOUND", "errors.notFound", {});
    expect(failureToast("Handlingen mislykkedes", other, (m) => serverMessageText(m ?? {}, "da"))).toEqual({
      title: "Handlingen mislykkedes",
      description: "Ikke fundet",
    });
    const network: AppError = { serverMessage: null, code: null, fields: [], network: true };
    expect(failureToast("Handlingen mislykkedes", network, () => undefined)).toEqual({
      title: "Handlingen mislykkedes",
      description: null,
    });
  });
});
