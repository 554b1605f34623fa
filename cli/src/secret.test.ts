import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { CliError } from "./errors";
import { SECRET_MAX_BYTES, secretValue } from "./secret";

describe("secretValue", () => {
  it("should keep a value given on the command line and read `-` from the input's first line", async () => {
    expect(await secretValue("hemmelig", Readable.from(["ignored\n"]))).toBe("hemmelig");
    expect(await secretValue(undefined)).toBeUndefined();
    expect(await secretValue("-", Readable.from(["ntn_abc\r\n", "second\n"]))).toBe("ntn_abc");
    expect(await secretValue("-", Readable.from(["ntn_", "split"]))).toBe("ntn_split");
  });

  it("should refuse an empty or oversized input before reading it whole", async () => {
    await expect(secretValue("-", Readable.from(["\n"]))).rejects.toThrow(CliError);
    const endless = Readable.from(
      (function* () {
        for (;;) yield "x".repeat(1024);
      })(),
    );
    await expect(secretValue("-", endless)).rejects.toThrow(`højst ${SECRET_MAX_BYTES} byte`);
  });
});
