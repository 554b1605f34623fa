import type { Locator, Page } from "playwright-core";

export type AdminTabName = "users" | "stats" | "activity" | "notion";

const TAB_NAMES: Record<AdminTabName, RegExp> = {
  users: /^(Brugere|Users)$/,
  stats: /^(Statistik|Statistics)$/,
  activity: /^(Aktivitet|Activity)$/,
  notion: /^Notion$/,
};

/** /admin, in Danish or English: tabs, user cards and dialogs, statistics, the activity log. */
export class AdminPage {
  constructor(readonly page: Page) {}

  readonly heading = () => this.page.getByRole("heading", { level: 1, name: "Admin Panel" });
  readonly tab = (name: AdminTabName) => this.page.getByRole("tab", { name: TAB_NAMES[name] });
  readonly panel = (name: AdminTabName) => this.page.getByTestId(`admin-${name}`);

  // users
  readonly userSearch = () =>
    this.page.getByRole("searchbox", { name: /^(Søg efter brugere|Search users)$/ });
  readonly userCount = () => this.page.getByTestId("admin-users-count");
  readonly userCards = () => this.page.getByTestId("admin-user-card");
  readonly userCard = (title: string): Locator =>
    this.userCards().filter({ has: this.page.getByRole("heading", { name: title, exact: true }) });
  readonly usersEmpty = () => this.page.getByTestId("admin-users-empty");
  readonly resetButton = (card: Locator) =>
    card.getByRole("button", { name: /^(Nulstil password|Reset password) for / });
  readonly deleteButton = (card: Locator) => card.getByRole("button", { name: /^(Slet|Delete) / });
  readonly dialog = () => this.page.getByRole("dialog");
  readonly resetField = () => this.dialog().getByLabel(/^(Nyt password|New password)$/);
  readonly resetConfirm = () =>
    this.dialog().getByRole("button", { name: /^(Nulstil password|Reset password|Ændrer\.\.\.)$/ });
  readonly deleteConfirm = () =>
    this.dialog().getByRole("button", { name: /^(Slet bruger|Delete user|Sletter\.\.\.)$/ });

  // statistics
  readonly statCards = () => this.page.getByTestId("admin-stat-card");
  readonly statSkeletons = () => this.page.getByTestId("admin-stat-skeleton");
  readonly statCard = (label: string) => this.page.getByRole("region", { name: label, exact: true });
  readonly messagesChart = () => this.page.getByTestId("admin-chart-messages");
  readonly activeChart = () => this.page.getByTestId("admin-chart-active");

  // activity
  readonly activitySearch = () =>
    this.page.getByRole("searchbox", { name: /^(Søg i aktivitet|Search activity)$/ });
  readonly activityCount = () => this.page.getByTestId("admin-activity-count");
  readonly activityItems = () => this.page.getByTestId("admin-activity-item");
  readonly activityEmpty = () => this.page.getByTestId("admin-activity-empty");
  readonly actionFilter = () => this.page.getByRole("combobox", { name: /^(Handling|Action)$/ });
  readonly timeFilter = () => this.page.getByRole("combobox", { name: /^(Tidsrum|Time)$/ });
  readonly clearFilters = () => this.page.getByRole("button", { name: /^(Ryd filtre|Clear filters)$/ });

  async goto(tab?: AdminTabName): Promise<this> {
    await this.page.goto(tab && tab !== "users" ? `/admin?tab=${tab}` : "/admin");
    await this.heading().waitFor();
    return this;
  }

  async openTab(name: AdminTabName): Promise<void> {
    await this.tab(name).click();
    await this.panel(name).waitFor();
  }

  async choose(select: Locator, option: RegExp): Promise<void> {
    await select.click();
    await this.page.getByRole("option", { name: option }).click();
  }
}
