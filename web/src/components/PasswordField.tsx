import Visibility from "@mui/icons-material/Visibility";
import VisibilityOff from "@mui/icons-material/VisibilityOff";
import { IconButton, InputAdornment, TextField, type TextFieldProps } from "@mui/material";
import { useState } from "react";
import { useT } from "../i18n/i18n";

type Props = Omit<TextFieldProps, "type"> & { label: string };

/** A password input with its own show/hide toggle (a real button, reachable by keyboard). */
export function PasswordField({ label, slotProps, ...rest }: Props) {
  const t = useT();
  const [visible, setVisible] = useState(false);
  const field = label.toLowerCase();
  return (
    <TextField
      {...rest}
      label={label}
      type={visible ? "text" : "password"}
      slotProps={{
        ...slotProps,
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={
                  visible ? t("common.hidePassword", { field }) : t("common.showPassword", { field })
                }
                onClick={() => setVisible((v) => !v)}
                edge="end"
              >
                {visible ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
