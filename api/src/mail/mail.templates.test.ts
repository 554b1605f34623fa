import { describe, expect, it } from "vitest";
import { passwordResetMail, verificationMail } from "./mail.templates";

describe("mail templates", () => {
  it("should build the Danish verification mail with the link to /verify-email", () => {
    const m = verificationMail("https://vidensbank.dk", "tok+/=");
    expect(m.subject).toBe("Bekræft din email til Vidensbank");
    expect(m.link).toBe("https://vidensbank.dk/verify-email?token=tok%2B%2F%3D");
    expect(m.text).toContain(m.link);
    expect(m.text).toContain("24 timer");
    expect(m.html).toContain('href="https://vidensbank.dk/verify-email?token=tok%2B%2F%3D"');
  });

  it("should build the Danish reset mail with the link to /reset-password", () => {
    const m = passwordResetMail("http://localhost:3000", "Bo", "abc");
    expect(m.subject).toBe("Nulstil din adgangskode til Vidensbank");
    expect(m.link).toBe("http://localhost:3000/reset-password?token=abc");
    expect(m.text).toContain("1 time");
    expect(m.html).toContain("Vælg ny adgangskode");
    expect(m.text).toMatch(/^Hej Bo$/m);
  });

  it("should escape the name in the reset mail's HTML and greet without one when given none", () => {
    const named = passwordResetMail("http://localhost:3000", "Anne <Holm>", "abc");
    expect(named.html).toContain("Hej Anne &lt;Holm&gt;");
    expect(named.html).not.toContain("<Holm>");
    const unnamed = passwordResetMail("http://localhost:3000", null, "abc");
    expect(unnamed.text).toMatch(/^Hej$/m);
  });
});
