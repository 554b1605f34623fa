/**
 * How common a word is in Danish at large (danish-frequency.txt.gz, danish-frequency.ts): the data is
 * present, bounded and read only when first asked, its terms are the analyser's index terms (a change to the
 * stemmer means running api/scripts/danish-frequency-build.ts again), and everyday words rank above rare ones.
 */
import fs from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { normaliseWord } from "../../api/src/search/search.analyzer";
import {
  commonness,
  danishFrequencyLoaded,
  danishFrequencyTerms,
  generalParagraphs,
  MAX_FREQUENCY_TERMS,
} from "./danish-frequency";

const DATA = new URL("./danish-frequency.txt.gz", import.meta.url);

describe("Danish word frequencies", () => {
  it("should read the data only when first asked, and hold a bounded number of terms", () => {
    expect(danishFrequencyLoaded()).toBe(false);
    expect(fs.statSync(DATA).size).toBeLessThan(1024 * 1024);
    const terms = danishFrequencyTerms();
    expect(danishFrequencyLoaded()).toBe(true);
    expect(terms).toBeGreaterThan(5_000);
    expect(terms).toBeLessThanOrEqual(MAX_FREQUENCY_TERMS);
  });

  it("should name its sources and their licences and count a corpus of some size", () => {
    const text = gunzipSync(fs.readFileSync(DATA)).toString("utf8");
    const header = text.split("\n").filter((l) => l.startsWith("#"));
    for (const source of ["libreoffice-help-da", "manpages-da", "MPL-2.0", "GPL-3+"]) {
      expect(header.join("\n")).toContain(source);
    }
    const paragraphs = Number(header.find((l) => l.startsWith("# paragraphs "))?.split(" ")[2]);
    expect(paragraphs).toBeGreaterThan(10_000);
  });

  it("should hold the analyser's index terms (stemmed, æøå folded)", () => {
    const text = gunzipSync(fs.readFileSync(DATA)).toString("utf8");
    const terms = new Set(
      text
        .split("\n")
        .filter((l) => l && !l.startsWith("#"))
        .map((l) => l.split("\t")[0]),
    );
    for (const word of ["vælge", "dokumentet", "åbner", "indstillinger", "brugeren"]) {
      expect(terms.has(normaliseWord(word))).toBe(true);
    }
    expect([...terms].some((t) => /[æøå]/.test(t))).toBe(false);
  });

  it("should rank an everyday word above a rare one, and know nothing of a word it lacks", () => {
    expect(commonness("vælge")).toBeGreaterThan(0.9);
    expect(commonness("står")).toBeGreaterThan(0);
    expect(commonness("står")).toBeLessThan(commonness("vælge"));
    expect(generalParagraphs("dokumentet")).toBe(generalParagraphs("dokumenter")); // by index term, any inflection
    expect(commonness("juleaftensdag")).toBe(0);
    expect(commonness("og")).toBe(0); // a stop word is no index term
  });
});
