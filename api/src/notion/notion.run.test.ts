import { NOTION_FAILURE_KEYS } from "@vidensbank/shared";
import { describe, expect, it } from "vitest";
import { Errors } from "../errors";
import { NotionAuthError, NotionRequestError } from "./notion.client";
import { asList, NotionShapeError } from "./notion.guards";
import { describeFailure, failureMessage } from "./notion.run";

/** What an admin reads in the sync's failure list: Danish, with Notion's status and code kept as data. */
describe("failureMessage", () => {
  const shape = (): unknown => {
    try {
      asList({ results: "nope" }, (x) => x, "pages");
    } catch (err) {
      return err;
    }
    throw new Error("asList accepted a malformed answer");
  };

  it.each([
    [new NotionAuthError(), "Notion afviste nøglen (ugyldig eller tilbagekaldt)"],
    [new NotionRequestError("x", 0), "Notion svarede ikke: kunne ikke nås (netværksfejl eller tidsgrænse)"],
    [new NotionRequestError("x", 404, "object_not_found"), "Siden findes ikke længere i Notion"],
    [
      new NotionRequestError("x", 429, "rate_limited"),
      "Notion svarede ikke: for mange forespørgsler, også efter ventetid (429, rate_limited)",
    ],
    [new NotionRequestError("x", 503), "Notion svarede ikke: fejl hos Notion (503)"],
    [
      new NotionRequestError("x", 400, "validation_error"),
      "Notion afviste forespørgslen (400, validation_error)",
    ],
    [shape(), "Notion sendte et uventet svar (feltet pages.results mangler eller har en anden form)"],
    [new Error("boom at /secret/path"), "Uventet fejl under synkroniseringen"],
  ])("should say %s in Danish", (err, text) => {
    expect(failureMessage(err)).toBe(text);
  });

  it.each([
    [new NotionAuthError(), "unauthorized", {}],
    [new NotionRequestError("x", 0), "unreachable", {}],
    [new NotionRequestError("x", 404, "object_not_found"), "pageGone", {}],
    [new NotionRequestError("x", 429, "rate_limited"), "rateLimited", { detail: "429, rate_limited" }],
    [new NotionRequestError("x", 503), "notionError", { detail: "503" }],
    [new NotionRequestError("x", 400, "validation_error"), "rejected", { detail: "400, validation_error" }],
    [shape(), "unexpectedShape", { field: "pages.results" }],
    [new Error("boom"), "unexpected", {}],
  ])("should record %s's reason by key, for the reader's language", (err, key, params) => {
    const f = describeFailure(err);
    expect(f).toEqual({ message: failureMessage(err), key, params });
    expect(Object.keys(NOTION_FAILURE_KEYS)).toContain(key);
  });

  it("should keep an AppError's own catalogue key and Danish text", () => {
    const err = Errors.badInput("notion.tokenRequired");
    expect(describeFailure(err)).toEqual({
      message: "Angiv en Notion-integrationsnøgle",
      key: "notion.tokenRequired",
      params: {},
    });
  });

  it("should keep the guard's detail for the log, not the admin's text", () => {
    const err = shape() as NotionShapeError;
    expect(err).toBeInstanceOf(NotionShapeError);
    expect(err.message).toBe("unexpected Notion response: pages.results is not a list");
    expect(failureMessage(err)).not.toMatch(/unexpected|is not/);
  });
});
