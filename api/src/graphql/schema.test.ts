import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { buildAppSchema, printSortedSchema, SCHEMA_FILE } from "./schema";

describe("schema.graphql", () => {
  it("should equal the schema emitted from the type-graphql classes (run `npm run schema` when this fails)", async () => {
    const emitted = printSortedSchema(await buildAppSchema());
    const committed = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, "utf8") : "";
    expect(committed).toBe(emitted);
  });

  it("should hold the accounts contract the web client builds against", async () => {
    const sdl = printSortedSchema(await buildAppSchema());
    for (const part of [
      "me: User",
      "login(input: LoginInput!): AuthPayload!",
      "register(input: RegisterInput!): RegisterPayload!",
      "adminUsers(search: String): [AdminUser!]!",
      "adminDeleteUser(id: ID!): Boolean!",
      "enum Role {\n  ADMIN\n  USER\n}",
    ]) {
      expect(sdl).toContain(part);
    }
  });
});
