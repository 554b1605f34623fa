/** Small HTTP helpers and builders for tests that drive a startTestApp() server. */
import type { TestApp } from "./app";

// Tests read response bodies loosely on purpose: `any` keeps assertions short.
// biome-ignore lint/suspicious/noExplicitAny: test helper
export interface RestResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** JSON request to the app; `body` is sent as JSON (a string is sent as-is). */
// biome-ignore lint/suspicious/noExplicitAny: test helper
export async function rest<T = any>(
  app: Pick<TestApp, "url">,
  method: string,
  path: string,
  opts: { body?: unknown; token?: string | null; cookie?: string; headers?: Record<string, string> } = {},
): Promise<RestResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.body !== undefined) headers["content-type"] ??= "application/json";
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers,
    body:
      opts.body === undefined
        ? undefined
        : typeof opts.body === "string"
          ? opts.body
          : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: body as T, headers: res.headers };
}

// biome-ignore lint/suspicious/noExplicitAny: test helper
export interface GqlResult<T = any> {
  status: number;
  data?: T;
  // biome-ignore lint/suspicious/noExplicitAny: test helper
  errors?: Array<{ message: string; extensions?: Record<string, any> }>;
  headers: Headers;
}

// biome-ignore lint/suspicious/noExplicitAny: test helper
export async function gql<T = any>(
  app: Pick<TestApp, "graphqlUrl">,
  query: string,
  variables?: Record<string, unknown>,
  token?: string | null,
): Promise<GqlResult<T>> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(app.graphqlUrl, {
    method: "POST",
    headers,
    body: JSON.stringify({ query, variables }),
  });
  const json = (await res.json()) as { data?: T; errors?: GqlResult["errors"] };
  return { status: res.status, data: json.data ?? undefined, errors: json.errors, headers: res.headers };
}

let seq = 0;

export interface UserInput {
  name: string;
  email: string;
  username: string;
  password: string;
}

/** A valid registration with unique e-mail and username. */
export function buildUser(overrides: Partial<UserInput> = {}): UserInput {
  seq += 1;
  const tag = `${Date.now().toString(36)}${seq}`;
  return {
    name: `Test Bruger ${seq}`,
    email: `bruger${tag}@minksekretariatet.dk`,
    username: `bruger${tag}`,
    password: "hemmeligt123",
    ...overrides,
  };
}

/** A user as the login response gives it (JSON: dates as strings). */
export interface SignedInUser {
  id: string;
  name: string;
  email: string;
  username: string;
  role: string;
  verified: boolean;
  createdAt: string;
  lastLogin: string | null;
}

/** Register through REST, follow the e-mailed link, log in; returns the token and user. */
export async function createVerifiedUser(
  app: TestApp,
  overrides: Partial<UserInput> = {},
): Promise<{ input: UserInput; token: string; user: SignedInUser }> {
  const input = buildUser(overrides);
  const reg = await rest(app, "POST", "/api/auth/register", { body: input });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const mail = await app.mail.waitFor(input.email);
  const link = mail.links.find((l) => l.includes("/verify-email?token="));
  if (!link) throw new Error("no verification link in mail");
  const token = new URL(link).searchParams.get("token")!;
  const ver = await rest(app, "GET", `/api/verify-email?token=${encodeURIComponent(token)}`);
  if (ver.status !== 200) throw new Error(`verify failed: ${ver.status} ${JSON.stringify(ver.body)}`);
  const login = await rest(app, "POST", "/api/auth/login", {
    body: { email: input.email, password: input.password },
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  return { input, token: login.body.token, user: login.body.user };
}

/** Log in as the built-in admin. */
export async function loginAdmin(app: TestApp): Promise<string> {
  const res = await rest(app, "POST", "/api/auth/login", { body: app.admin });
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}
