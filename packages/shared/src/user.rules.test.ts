import { describe, expect, it } from "vitest";
import { type FieldError, formatMessage, messageText } from "./messages";
import {
  normalizeEmail,
  validateEmail,
  validateLogin,
  validatePasswordChange,
  validatePasswordReset,
  validateRegistration,
} from "./user.rules";

/** The field errors as the server sends them: field and Danish text. */
const danish = (errors: FieldError[]) =>
  errors.map((e) => ({ field: e.field, message: messageText(e, "da") }));
const messages = {
  nameMin: formatMessage("rules.nameMin"),
  nameMax: formatMessage("rules.nameMax"),
  emailInvalid: formatMessage("rules.emailInvalid"),
  usernameMin: formatMessage("rules.usernameMin"),
  usernameMax: formatMessage("rules.usernameMax"),
  passwordMin: formatMessage("rules.passwordMin"),
};

const domains = ["minksekretariatet.dk", "vidensbank.dk"];
const valid = {
  name: "Anna Hansen",
  email: "anna@minksekretariatet.dk",
  username: "anna",
  password: "hemmelig",
};

describe("user.rules", () => {
  it("should accept a valid registration", () => {
    expect(danish(validateRegistration(valid, domains))).toEqual([]);
  });

  it.each([
    ["name", "A", messages.nameMin],
    ["name", "x".repeat(101), messages.nameMax],
    ["email", "not-an-email", messages.emailInvalid],
    ["email", "anna@gmail.com", "Kun @minksekretariatet.dk email adresser er tilladt"],
    ["email", "a@evil.dk@minksekretariatet.dk", messages.emailInvalid],
    ["email", "anna@sub.minksekretariatet.dk", "Kun @minksekretariatet.dk email adresser er tilladt"],
    ["email", "anna@minksekretariatet.dk.", messages.emailInvalid],
    ["username", "ab", messages.usernameMin],
    ["username", "x".repeat(51), messages.usernameMax],
    ["password", "12345", messages.passwordMin],
    // one line of visible text: a name greets its owner in mails and is shown to others
    ["name", "Anna\nKlik her", formatMessage("rules.nameChars")],
    ["name", "Anna\u2028Hansen", formatMessage("rules.nameChars")],
    ["name", "Anna \u202Enesnah", formatMessage("rules.nameChars")],
    ["name", "Anna \u2066Hansen\u2069", formatMessage("rules.nameChars")],
    ["username", "anna\u0007", formatMessage("rules.usernameChars")],
    ["username", "anna\u200Fx", formatMessage("rules.usernameChars")],
  ])("should reject %s=%j with the spec's message", (field, value, message) => {
    expect(danish(validateRegistration({ ...valid, [field]: value }, domains))).toEqual([{ field, message }]);
  });

  it("should accept names in any script with ordinary punctuation and emoji", () => {
    for (const name of ["Søren Ærø-O'Brien", "Łukasz Ünal", "محمد علي", "Anna 👩\u200D💻 Hansen"]) {
      expect(danish(validateRegistration({ ...valid, name }, domains))).toEqual([]);
    }
  });

  it("should accept any allowed domain, case-insensitively", () => {
    expect(validateEmail("Anna@VIDENSBANK.dk", domains)).toBeNull();
    expect(normalizeEmail("  Anna@VIDENSBANK.dk ")).toBe("anna@vidensbank.dk");
  });

  it("should require a password at login", () => {
    expect(danish(validateLogin({ email: "a@minksekretariatet.dk", password: "" }))).toEqual([
      { field: "password", message: "Password er påkrævet" },
    ]);
  });

  it("should require matching reset passwords", () => {
    expect(danish(validatePasswordReset({ newPassword: "abcdef", confirmPassword: "abcdeg" }))).toEqual([
      { field: "confirmPassword", message: "Passwords matcher ikke" },
    ]);
  });

  it("should put the mismatch on the confirmation field when changing password", () => {
    expect(
      danish(validatePasswordChange({ currentPassword: "", newPassword: "abc", confirmPassword: "" })),
    ).toEqual([
      { field: "currentPassword", message: "Nuværende adgangskode er påkrævet" },
      { field: "newPassword", message: "Ny adgangskode skal være mindst 6 tegn" },
      { field: "confirmPassword", message: "Bekræft ny adgangskode" },
    ]);
    expect(
      danish(
        validatePasswordChange({ currentPassword: "x", newPassword: "abcdef", confirmPassword: "abcdex" }),
      ),
    ).toEqual([{ field: "confirmPassword", message: "Adgangskoderne matcher ikke" }]);
  });
});
