import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ContentError, loadContentDir } from "./content";

const CONTENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../content");
const CATEGORIES = ["Økonomi", "Procedurer", "Roller", "Sagsbehandling"];

describe("loadContentDir", () => {
  let tmp: string | undefined;
  afterEach(async () => {
    if (tmp) await rm(tmp, { recursive: true, force: true });
    tmp = undefined;
  });

  async function tempDir(files: Record<string, string>): Promise<string> {
    tmp = await mkdtemp(path.join(tmpdir(), "vidensbank-content-"));
    for (const [name, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(tmp, name)), { recursive: true });
      await writeFile(path.join(tmp, name), text);
    }
    return tmp;
  }

  it("should load at least 24 sample articles with at least 5 in each of the four categories", async () => {
    const articles = await loadContentDir(CONTENT_DIR);
    expect(articles.length).toBeGreaterThanOrEqual(24);
    for (const category of CATEGORIES) {
      expect(articles.filter((a) => a.category === category).length, category).toBeGreaterThanOrEqual(5);
    }
    // One article in another category shows the default style.
    expect(articles.some((a) => !CATEGORIES.includes(a.category))).toBe(true);
  });

  it("should give every sample article a title, tags, a body of 300-900 words and a unique source path", async () => {
    const articles = await loadContentDir(CONTENT_DIR);
    const paths = new Set(articles.map((a) => a.sourcePath));
    expect(paths.size).toBe(articles.length);
    for (const a of articles) {
      expect(a.title.length, a.sourcePath).toBeGreaterThan(5);
      expect(a.tags.length, a.sourcePath).toBeGreaterThan(0);
      expect(a.content.startsWith("---"), a.sourcePath).toBe(false);
      const words = a.content.split(/\s+/).filter(Boolean).length;
      expect(words, a.sourcePath).toBeGreaterThanOrEqual(300);
      expect(words, a.sourcePath).toBeLessThanOrEqual(900);
      expect(a.sourcePath).toMatch(/^[a-z-]+\/[a-z0-9-]+\.md$/);
      expect(a.contentHash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it("should use the spec's line conventions and all forms of sagsbehandling across the samples", async () => {
    const all = (await loadContentDir(CONTENT_DIR)).map((a) => a.content).join("\n");
    for (const re of [/^# /m, /^## /m, /^### /m, /^- /m, /^\d+\. /m, /^Titel:/m, /^Notat:/m, /^Vigtigt$/m]) {
      expect(all).toMatch(re);
    }
    for (const word of ["sagsbehandling", "sagsbehandlingen", "sagsbehandlinger"]) {
      expect(all.toLowerCase()).toMatch(new RegExp(`\\b${word}\\b`));
    }
  });

  it("should parse front matter, strip it from the body and use the relative path as key", async () => {
    const dir = await tempDir({
      "oekonomi/a.md":
        "---\ntitle: Kontingent\ncategory: Økonomi\nsubcategory: Opkrævning\ntags: [kontingent, rykker]\n---\n# Kontingent\n\nBetales i januar.\n",
      "b.md": "---\ntitle: Uden tags\ncategory: IT\n---\nTekst.\n",
      "ignored.txt": "not markdown",
    });
    const articles = await loadContentDir(dir);
    expect(articles.map((a) => a.sourcePath)).toEqual(["b.md", "oekonomi/a.md"]);
    const a = articles[1];
    expect(a).toMatchObject({
      title: "Kontingent",
      category: "Økonomi",
      subcategory: "Opkrævning",
      tags: ["kontingent", "rykker"],
    });
    expect(a.content).toBe("# Kontingent\n\nBetales i januar.\n");
    expect(articles[0].tags).toEqual([]);
    expect(articles[0].subcategory).toBeUndefined();
  });

  it("should store imported titles, categories and tags as plain text and the body as Markdown without HTML", async () => {
    const dir = await tempDir({
      "a.md":
        "---\n" +
        'title: "Ferie <img src=x onerror=alert(1)>regler"\n' +
        'category: "<b>IT</b>"\n' +
        'subcategory: "<scr<script>ipt>"\n' +
        'tags: ["<svg/onload=alert(1)>", "&lt;script&gt;", "<i></i>", ferie]\n' +
        "---\n" +
        "# Ferie <script>alert(1)</script>\n\n" +
        "Tekst <<img src=x onerror=alert(1)> og <!-- skjult --> a < b, 3 > 2, æøå.\n",
      "b.md": '---\ntitle: "<b></b>"\ncategory: IT\n---\nTekst.\n',
    });
    const err = await loadContentDir(dir).catch((e: unknown) => e);
    // a title that is nothing but HTML is empty
    expect((err as ContentError).field).toBe("title");
    await rm(path.join(dir, "b.md"));
    const [a] = await loadContentDir(dir);
    const fields = [a.title, a.category, a.subcategory ?? "", ...a.tags, a.content];
    for (const text of fields) expect(text).not.toMatch(/<[a-z/!?]/i);
    expect(a.title).toBe("Ferie regler"); // the tag is dropped, the words stay
    expect(a.category).toBe("IT");
    expect(a.tags).toHaveLength(3); // "<i></i>" is no tag at all
    expect(a.content).toBe("# Ferie alert(1)\n\nTekst < og  a < b, 3 > 2, æøå.\n");
  });

  it("should leave the sample articles untouched by the HTML sanitising (they have no HTML)", async () => {
    for (const a of await loadContentDir(CONTENT_DIR)) {
      const raw = await readFile(path.join(CONTENT_DIR, a.sourcePath), "utf8");
      expect(raw, a.sourcePath).toContain(a.content.trim());
      expect(raw, a.sourcePath).toContain(a.title);
    }
  });

  it("should change the content hash exactly when the article changes", async () => {
    const text = "---\ntitle: A\ncategory: IT\ntags: [x]\n---\nTekst.\n";
    const first = await loadContentDir(await tempDir({ "a.md": text }));
    await rm(tmp as string, { recursive: true, force: true });
    const same = await loadContentDir(await tempDir({ "a.md": text }));
    await rm(tmp as string, { recursive: true, force: true });
    const edited = await loadContentDir(await tempDir({ "a.md": text.replace("Tekst.", "Ny tekst.") }));
    expect(same[0].contentHash).toBe(first[0].contentHash);
    expect(edited[0].contentHash).not.toBe(first[0].contentHash);
  });

  it.each([
    ["missing title", "---\ncategory: IT\ntags: [x]\n---\nTekst\n", "title"],
    ["empty category", "---\ntitle: A\ncategory: ''\n---\nTekst\n", "category"],
    ["tags not a list", "---\ntitle: A\ncategory: IT\ntags: 7\n---\nTekst\n", "tags"],
    ["non-text subcategory", "---\ntitle: A\ncategory: IT\nsubcategory: [1]\n---\nTekst\n", "subcategory"],
    ["no front matter", "# Bare tekst\n", "front matter"],
    ["broken YAML", "---\ntitle: [unclosed\ncategory: IT\n---\nTekst\n", "front matter"],
    ["empty body", "---\ntitle: A\ncategory: IT\n---\n\n", "content"],
  ])("should reject a file with %s, naming the file and the field", async (_case, text, field) => {
    const dir = await tempDir({
      "good.md": "---\ntitle: God\ncategory: IT\n---\nTekst\n",
      "sub/broken.md": text,
    });
    const err = await loadContentDir(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContentError);
    expect((err as ContentError).file).toBe("sub/broken.md");
    expect((err as ContentError).field).toBe(field);
    expect((err as ContentError).message).toContain("sub/broken.md");
    expect((err as ContentError).message).toContain(field);
  });
});
