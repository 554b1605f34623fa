/** The asked clause of a long question (search.asked-clause.ts): Danish word order marks what is asked. */
import { describe, expect, it } from "vitest";
import { askedClause, askedText } from "./search.asked-clause";

describe("asked clause (search.asked-clause.ts)", () => {
  it("should set the situation before a dash apart from the question clause after it", () => {
    const c = askedClause(
      "En leverandør har sendt den samme regning to gange i denne måned og ringer nu hver dag – hvem skal godkende betalingen?",
    );
    expect(c?.asked).toBe("hvem skal godkende betalingen?");
    expect(c?.situation).toMatch(/^En leverandør/);
  });

  it("should start the asked part at a comma clause that opens as a question (V1 after 'men')", () => {
    const c = askedClause(
      "Vi vil gerne holde et lille sommerarrangement for de frivillige i haven bag kontoret, men må vi bruge af mødebudgettet til det?",
    );
    expect(c?.asked).toBe("men må vi bruge af mødebudgettet til det?");
  });

  it("should leave a short question, and one that opens by asking, whole", () => {
    expect(askedClause("Hvem godkender en regning – og hvornår?")).toBeUndefined();
    expect(
      askedClause(
        "Hvor lang tid har vi til at svare et medlem, der har sendt en klage over en afgørelse i sidste uge?",
      ),
    ).toBeUndefined();
    // a statement with no question clause after its comma: nothing set apart
    expect(
      askedClause(
        "Jeg har sendt fakturaen til medlemmet i sidste uge, men den er kommet retur fra deres postkasse igen",
      ),
    ).toBeUndefined();
  });

  it("should count the situation's indirect questions as asked, not a relative 'hvor'", () => {
    const t = askedText(
      "Et medlem har bedt om en oversigt, hvor alle betalinger står, og spørger, om de kan få den på engelsk – hvad svarer jeg?",
    );
    expect(t).toContain("om de kan få den på engelsk");
    expect(t).not.toContain("hvor alle betalinger");
    expect(t).toMatch(/hvad svarer jeg\?$/);
  });
});
