import { useQuery } from "@apollo/client/react";
import PersonSearchRoundedIcon from "@mui/icons-material/PersonSearchRounded";
import SearchRoundedIcon from "@mui/icons-material/SearchRounded";
import { Alert, Box, Button, InputAdornment, Skeleton, Stack, TextField } from "@mui/material";
import { useState } from "react";
import { useT } from "../../../i18n/i18n";
import { EmptyState } from "../../knowledge/components/EmptyState";
import { AdminUsersQuery } from "../graphql/adminUsers.query";
import { useDebounced } from "../hooks/useDebounced";
import {
  type AdminUserItem,
  USER_SEARCH_DEBOUNCE_MS,
  USER_SEARCH_MAX_LENGTH,
  USERS_PAGE_SIZE,
} from "../lib/users";
import { CountChip } from "./CountChip";
import { DeleteUserDialog } from "./DeleteUserDialog";
import { ResetPasswordDialog } from "./ResetPasswordDialog";
import { UserCard } from "./UserCard";

/** Users tab (spec §2): server-side search, '{n} brugere', a card per user, reset and delete dialogs. */
export function UsersTab() {
  const t = useT();
  const [search, setSearch] = useState("");
  const query = useDebounced(search.trim(), USER_SEARCH_DEBOUNCE_MS);
  const [shown, setShown] = useState(USERS_PAGE_SIZE);
  const [resetting, setResetting] = useState<AdminUserItem | null>(null);
  const [deleting, setDeleting] = useState<AdminUserItem | null>(null);
  const { data, previousData, loading, error, refetch } = useQuery(AdminUsersQuery, {
    variables: { search: query || null },
    fetchPolicy: "cache-and-network",
  });
  const users = (data ?? previousData)?.adminUsers;

  return (
    <Stack spacing={2.5}>
      <Box sx={{ display: "flex", gap: 2, alignItems: "center", flexWrap: "wrap" }}>
        <TextField
          type="search"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setShown(USERS_PAGE_SIZE);
          }}
          placeholder={t("admin.users.search")}
          autoComplete="off"
          sx={{ flex: "1 1 280px", "& .MuiInputBase-root": { bgcolor: "background.paper" } }}
          slotProps={{
            htmlInput: { maxLength: USER_SEARCH_MAX_LENGTH, "aria-label": t("admin.users.searchLabel") },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchRoundedIcon aria-hidden="true" />
                </InputAdornment>
              ),
            },
          }}
        />
        {(users || !error) && (
          <CountChip
            label={users ? t("admin.users.count", { n: users.length }) : null}
            testId="admin-users-count"
            placeholderWidth={96}
          />
        )}
      </Box>

      {error && !users ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void refetch()}>
              {t("admin.retry")}
            </Button>
          }
        >
          {t("admin.users.loadFailed")}
        </Alert>
      ) : !users ? (
        <Stack spacing={1.5} aria-busy="true" aria-label={t("admin.loading")}>
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} variant="rounded" height={112} />
          ))}
        </Stack>
      ) : users.length === 0 ? (
        <EmptyState
          testId="admin-users-empty"
          icon={<PersonSearchRoundedIcon />}
          title={t("admin.users.emptyTitle")}
          text={query ? t("admin.users.emptySearch") : t("admin.users.emptyNone")}
        />
      ) : (
        <>
          <Stack component="ul" spacing={1.5} sx={{ listStyle: "none", p: 0, m: 0 }} aria-busy={loading}>
            {users.slice(0, shown).map((user) => (
              <li key={user.id}>
                <UserCard user={user} onReset={setResetting} onDelete={setDeleting} />
              </li>
            ))}
          </Stack>
          {users.length > shown && (
            <Box sx={{ textAlign: "center" }}>
              <Button variant="outlined" onClick={() => setShown((n) => n + USERS_PAGE_SIZE)}>
                {t("admin.showMore", { n: Math.min(USERS_PAGE_SIZE, users.length - shown) })}
              </Button>
            </Box>
          )}
        </>
      )}

      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
      <DeleteUserDialog user={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
