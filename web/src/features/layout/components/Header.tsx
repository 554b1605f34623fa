import LogoutRoundedIcon from "@mui/icons-material/LogoutRounded";
import MenuRoundedIcon from "@mui/icons-material/MenuRounded";
import {
  AppBar,
  Avatar,
  Box,
  Button,
  Divider,
  IconButton,
  ListItemIcon,
  Menu,
  MenuItem,
  Toolbar,
  Typography,
} from "@mui/material";
import { useId, useState } from "react";
import { NavLink, Link as RouterLink } from "react-router-dom";
import { BrandMark } from "../../../components/BrandMark";
import { useT } from "../../../i18n/i18n";
import { useAuth } from "../../auth/hooks/useAuth";
import { useLogout } from "../../auth/hooks/useLogout";
import { EnvironmentBadge } from "../../environment/components/EnvironmentBadge";
import { NAV_ITEMS } from "../navItems";

function initials(name: string): string {
  const parts = name.trim().split(/\s+/);
  return (
    (parts[0]?.[0] ?? "") + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? "") : "")
  ).toUpperCase();
}

/** Header of the signed-in pages: links, environment badge, the user's name and logout. */
export function Header() {
  const t = useT();
  const { user } = useAuth();
  const { logout, pending } = useLogout();
  const menuId = useId();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const items = NAV_ITEMS.filter((item) => !item.adminOnly || user?.isAdmin);

  return (
    <AppBar
      position="sticky"
      elevation={0}
      color="inherit"
      sx={{ bgcolor: "background.paper", borderBottom: 1, borderColor: "divider" }}
    >
      <Toolbar sx={{ gap: { xs: 1, md: 2 }, minHeight: { xs: 60, md: 68 } }}>
        <Box
          component={RouterLink}
          to="/"
          aria-label={`Vidensbank – ${t("nav.home")}`}
          sx={{ color: "text.primary", textDecoration: "none", borderRadius: 1, mr: { md: 2 } }}
        >
          <BrandMark />
        </Box>

        <Box
          component="nav"
          aria-label={t("nav.main")}
          sx={{ display: { xs: "none", md: "flex" }, gap: 0.5 }}
        >
          {items.map((item) => (
            <Button
              key={item.to}
              component={NavLink}
              to={item.to}
              // "/" only for itself; the others also for the pages under them (/admin/notion is Admin)
              end={item.to === "/"}
              color="inherit"
              sx={{
                color: "text.secondary",
                px: { md: 1, lg: 1.5 },
                whiteSpace: "nowrap",
                "&.active": { color: "primary.main", bgcolor: "action.selected" },
              }}
            >
              {t(item.label)}
            </Button>
          ))}
        </Box>

        <Box sx={{ flexGrow: 1 }} />
        <EnvironmentBadge />

        {user && (
          <Box sx={{ display: { xs: "none", md: "flex" }, alignItems: "center", gap: 1 }}>
            <Avatar
              sx={{
                display: { md: "none", lg: "flex" },
                width: 32,
                height: 32,
                fontSize: "0.85rem",
                bgcolor: "secondary.main",
                color: "secondary.contrastText",
              }}
              aria-hidden="true"
            >
              {initials(user.name)}
            </Avatar>
            <Typography
              data-testid="header-user-name"
              variant="body2"
              noWrap
              title={user.name}
              sx={{ fontWeight: 600, maxWidth: { md: 140, lg: 220 } }}
            >
              {user.name}
            </Typography>
          </Box>
        )}
        <Button
          onClick={() => void logout()}
          disabled={pending}
          variant="outlined"
          size="small"
          startIcon={<LogoutRoundedIcon />}
          sx={{ display: { xs: "none", md: "inline-flex" }, whiteSpace: "nowrap", flexShrink: 0 }}
        >
          {t("nav.logout")}
        </Button>

        <IconButton
          sx={{ display: { xs: "inline-flex", md: "none" } }}
          aria-label={t("nav.menu")}
          aria-haspopup="menu"
          aria-controls={menuAnchor ? menuId : undefined}
          aria-expanded={Boolean(menuAnchor)}
          onClick={(e) => setMenuAnchor(e.currentTarget)}
        >
          <MenuRoundedIcon />
        </IconButton>
        <Menu
          id={menuId}
          anchorEl={menuAnchor}
          open={Boolean(menuAnchor)}
          onClose={() => setMenuAnchor(null)}
        >
          {user && (
            <Box sx={{ px: 2, py: 1 }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {user.name}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {user.email}
              </Typography>
            </Box>
          )}
          <Divider />
          {items.map((item) => (
            <MenuItem
              key={item.to}
              component={NavLink}
              to={item.to}
              end={item.to === "/"}
              onClick={() => setMenuAnchor(null)}
            >
              {t(item.label)}
            </MenuItem>
          ))}
          <Divider />
          <MenuItem
            onClick={() => {
              setMenuAnchor(null);
              void logout();
            }}
          >
            <ListItemIcon>
              <LogoutRoundedIcon fontSize="small" />
            </ListItemIcon>
            {t("nav.logout")}
          </MenuItem>
        </Menu>
      </Toolbar>
    </AppBar>
  );
}
