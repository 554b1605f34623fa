/**
 * The connection to Notion: the admin's saved token (internal integration token or OAuth access token, stored
 * encrypted) or else NOTION_TOKEN from the environment. Checking a token asks Notion for the integration's bot
 * user (GET /v1/users/me), which also names the workspace. The token leaves this module only towards Notion.
 */
import type { AppConfig } from "../config";
import { AppError, Errors } from "../errors";
import { exchangeOauthCode, NotionApi, NotionAuthError, type NotionClientOptions } from "./notion.client";
import { NotionShapeError } from "./notion.guards";
import type { RequestLimiter } from "./notion.limiter";
import { NotionConnectionModel } from "./notion.models";
import type { NotionSecrets } from "./notion.secret";

export const TOKEN_MAX_LENGTH = 500;
const CONNECTION_ID = "connection";
/** How long the workspace of the environment's token is remembered. */
const ENV_STATUS_TTL_MS = 5 * 60_000;

export type ConnectionVia = "token" | "oauth" | "env";

export interface NotionStatusView {
  connected: boolean;
  workspace: { name: string; id: string } | null;
  via: ConnectionVia | null;
}

export const NOT_CONNECTED: NotionStatusView = { connected: false, workspace: null, via: null };

export interface ConnectionDeps {
  config: AppConfig;
  secrets: NotionSecrets;
  limiter: RequestLimiter;
  /** client options for tests (retry delays) */
  clientOptions?: Partial<NotionClientOptions>;
}

/** Notion's errors as the app's: a refused token, an outage, an unexpected answer. */
export function toAppError(err: unknown): Error {
  if (err instanceof AppError) return err;
  if (err instanceof NotionAuthError) return new AppError("NOTION_TOKEN_INVALID", "notion.tokenInvalid");
  if (err instanceof NotionShapeError) return new AppError("NOTION_UNAVAILABLE", "notion.unexpectedResponse");
  return new AppError("NOTION_UNAVAILABLE", "notion.unavailable");
}

export class NotionConnection {
  private envStatus: { at: number; view: NotionStatusView } | null = null;

  constructor(private readonly deps: ConnectionDeps) {}

  /** A client for this token (default: the connection's). */
  api(token: string): NotionApi {
    return new NotionApi({
      token,
      baseUrl: this.deps.config.notionApiBaseUrl,
      limiter: this.deps.limiter,
      ...this.deps.clientOptions,
    });
  }

  /** The token in use and where it came from, or null when not connected. */
  async token(): Promise<{ token: string; via: ConnectionVia } | null> {
    const doc = await NotionConnectionModel.findById(CONNECTION_ID).lean();
    if (doc) {
      const token = this.deps.secrets.decrypt(doc.tokenCipher);
      if (token) return { token, via: doc.via as ConnectionVia };
    }
    return this.deps.config.notionToken ? { token: this.deps.config.notionToken, via: "env" } : null;
  }

  async status(): Promise<NotionStatusView> {
    const doc = await NotionConnectionModel.findById(CONNECTION_ID).lean();
    if (doc && this.deps.secrets.decrypt(doc.tokenCipher)) {
      return {
        connected: true,
        workspace: { name: doc.workspaceName ?? "Notion", id: doc.workspaceId ?? "" },
        via: doc.via as ConnectionVia,
      };
    }
    const env = this.deps.config.notionToken;
    if (!env) return NOT_CONNECTED;
    if (this.envStatus && Date.now() - this.envStatus.at < ENV_STATUS_TTL_MS) return this.envStatus.view;
    let view: NotionStatusView;
    try {
      const me = await this.api(env).me();
      view = { connected: true, workspace: workspaceOf(me.workspace_name, me.workspace_id), via: "env" };
    } catch (err) {
      // a refused token is not connected; an outage leaves the state unknown to the caller (an error)
      if (!(err instanceof NotionAuthError)) throw toAppError(err);
      view = NOT_CONNECTED;
    }
    this.envStatus = { at: Date.now(), view };
    return view;
  }

  /** Check the token with Notion and save it encrypted. NOTION_TOKEN_INVALID when Notion refuses it. */
  async saveToken(raw: unknown): Promise<NotionStatusView> {
    const token = typeof raw === "string" ? raw.trim() : "";
    if (!token) throw Errors.invalidField("token", "notion.tokenRequired");
    if (token.length > TOKEN_MAX_LENGTH)
      throw Errors.invalidField("token", "notion.tokenTooLong", { max: TOKEN_MAX_LENGTH });
    let me: Awaited<ReturnType<NotionApi["me"]>>;
    try {
      me = await this.api(token).me();
    } catch (err) {
      throw toAppError(err);
    }
    return this.store(token, "token", me.workspace_name, me.workspace_id);
  }

  /** Exchange an OAuth code (callback) and save the access token. */
  async saveOauthCode(code: string): Promise<NotionStatusView> {
    const { notionClientId, notionClientSecret, notionApiBaseUrl } = this.deps.config;
    if (!notionClientId || !notionClientSecret) throw Errors.badInput("notion.oauthNotConfigured");
    try {
      const res = await exchangeOauthCode({
        baseUrl: notionApiBaseUrl,
        clientId: notionClientId,
        clientSecret: notionClientSecret,
        code,
        redirectUri: this.redirectUri(),
        limiter: this.deps.limiter,
      });
      return this.store(res.access_token, "oauth", res.workspace_name, res.workspace_id);
    } catch (err) {
      throw toAppError(err);
    }
  }

  /** Forget the saved token (the environment's token, if any, stays in use). */
  async disconnect(): Promise<NotionStatusView> {
    await NotionConnectionModel.deleteOne({ _id: CONNECTION_ID });
    this.envStatus = null;
    return this.status().catch(() => NOT_CONNECTED);
  }

  oauthConfigured(): boolean {
    return Boolean(this.deps.config.notionClientId && this.deps.config.notionClientSecret);
  }

  redirectUri(): string {
    return `${this.deps.config.appUrl}/api/auth/notion/callback`;
  }

  /** Notion's authorize URL for a state. */
  authorizeUrl(state: string): string {
    const base = (this.deps.config.notionApiBaseUrl ?? "https://api.notion.com").replace(/\/+$/, "");
    const url = new URL(`${base}/v1/oauth/authorize`);
    url.searchParams.set("client_id", this.deps.config.notionClientId ?? "");
    url.searchParams.set("response_type", "code");
    url.searchParams.set("owner", "user");
    url.searchParams.set("redirect_uri", this.redirectUri());
    url.searchParams.set("state", state);
    return url.toString();
  }

  private async store(
    token: string,
    via: "token" | "oauth",
    name: string | null,
    id: string | null,
  ): Promise<NotionStatusView> {
    await NotionConnectionModel.updateOne(
      { _id: CONNECTION_ID },
      {
        $set: {
          tokenCipher: this.deps.secrets.encrypt(token),
          via,
          workspaceName: name,
          workspaceId: id,
          connectedAt: new Date(),
        },
      },
      { upsert: true },
    );
    return { connected: true, workspace: workspaceOf(name, id), via };
  }
}

function workspaceOf(name: string | null, id: string | null): NotionStatusView["workspace"] {
  return { name: name ?? "Notion", id: id ?? "" };
}
