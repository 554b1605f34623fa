import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { isMessageKey, type MessageKey } from "@vidensbank/shared";
import { describe, expect, it } from "vitest";
import { AppError, Errors } from "./errors";

const SRC = path.dirname(new URL(import.meta.url).pathname);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "testing" ? [] : sourceFiles(full);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [full] : [];
  });
}

describe("AppError", () => {
  it("should carry a catalogue key, its parameters and the Danish text", () => {
    const e = Errors.invalidField("search", "users.searchTooLong", { max: 200 });
    expect(e).toMatchObject({ code: "BAD_USER_INPUT", key: "users.searchTooLong", params: { max: 200 } });
    expect(e.message).toBe("Søgningen må højst være 200 tegn");
    expect(e.fields).toEqual([{ field: "search", message: "Søgningen må højst være 200 tegn" }]);
    expect(Errors.notFound().message).toBe("Ikke fundet");
    expect(Errors.tooManyRequests(30).message).toBe("For mange forsøg. Prøv igen om 30 sekunder.");
    expect(Errors.tooManyRequests(60).message).toBe("For mange forsøg. Prøv igen om 1 minut.");
  });

  it("should refuse a text where a key belongs (types and at run time)", () => {
    // @ts-expect-error a Danish text is not a MessageKey
    expect(() => new AppError("NOT_FOUND", "Ikke fundet")).toThrow(TypeError);
    // @ts-expect-error helpers take keys too
    expect(() => Errors.conflict("Brugernavnet er allerede taget")).toThrow(TypeError);
    expect(() => new AppError("NOT_FOUND", "no.suchKey" as MessageKey)).toThrow(TypeError);
  });

  it("should only be given catalogue keys anywhere in api/src", () => {
    const literal = [
      /new AppError\(\s*"[A-Z_]+",\s*"([^"]*)"/g, // new AppError("CODE", "key")
      /new AppError\(\s*[A-Z_]+,\s*"([^"]*)"/g, // new AppError(CONSTANT, "key")
      /Errors\.(?!invalidField\b)\w+\(\s*"([^"]*)"/g, // Errors.notFound("key")
      /Errors\.invalidField\(\s*"\w+",\s*"([^"]*)"/g, // Errors.invalidField("field", "key")
      /\bkey: "([^"]*)"/g, // { field, key: "key" }
      /formatMessage\(\s*"([^"]*)"/g,
    ];
    const offenders: string[] = [];
    let seen = 0;
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(file, "utf8");
      for (const re of literal) {
        for (const m of text.matchAll(re)) {
          seen += 1;
          if (!isMessageKey(m[1])) offenders.push(`${path.relative(SRC, file)}: "${m[1]}"`);
        }
      }
      // an error helper given a text or a template instead of a key
      for (const m of text.matchAll(/(?:Errors\.\w+|new AppError)\([^)]*`/g)) {
        offenders.push(`${path.relative(SRC, file)}: ${m[0]}`);
      }
    }
    expect(seen).toBeGreaterThan(50);
    expect(offenders).toEqual([]);
  });
});
