import { describe, expect, it } from "vitest";
import { ipKey, pairKey } from "./request-meta";

describe("ipKey: the client a per-IP limit counts", () => {
  it("should keep an IPv4 address and read an IPv4-mapped IPv6 one as that address", () => {
    expect(ipKey({ ip: "198.51.100.7" })).toBe("198.51.100.7");
    expect(ipKey({ ip: "::ffff:198.51.100.7" })).toBe("198.51.100.7");
    expect(ipKey({ ip: "::FFFF:c633:6407" })).toBe("198.51.100.7");
  });

  it("should count every address of one IPv6 /64 as one client", () => {
    const key = ipKey({ ip: "2001:db8:7:7::1" });
    expect(key).toBe("2001:db8:7:7::/64");
    for (const ip of ["2001:db8:7:7:ffff:1:2:3", "2001:0DB8:0007:0007:0:0:0:9", "2001:db8:7:7::1%eth0"]) {
      expect(ipKey({ ip })).toBe(key);
    }
    expect(ipKey({ ip: "2001:db8:7:8::1" })).not.toBe(key);
    expect(ipKey({ ip: "::1" })).toBe("0:0:0:0::/64");
    expect(ipKey({ ip: "64:ff9b::198.51.100.7" })).toBe("64:ff9b:0:0::/64");
  });

  it("should name an unknown client one key", () => {
    expect(ipKey({})).toBe("unknown");
    expect(ipKey({ ip: "" })).toBe("unknown");
  });

  it("should key a pair by the client and the subject", () => {
    expect(pairKey("a@minksekretariatet.dk", { ip: "::ffff:198.51.100.7" })).toBe(
      "198.51.100.7|a@minksekretariatet.dk",
    );
  });
});
