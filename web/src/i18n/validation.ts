import { messages as rules } from "../../../api/src/users/user.rules";
import type { MessageKey } from "./da";
import type { Translate } from "./i18n";

type RuleKey = Exclude<keyof typeof rules, "emailDomain">;

// The domain message is a template in the rules file; split it around a marker to recognise any domain.
const [domainPrefix, domainSuffix] = rules.emailDomain("\u0000").split("\u0000");

/**
 * Shows a rule message (from user.rules.ts, either computed in the client or sent by the server as a field error)
 * in the user's language. Unknown texts are shown as they are.
 */
export function translateRuleMessage(message: string, t: Translate): string {
  for (const key of Object.keys(rules) as (keyof typeof rules)[]) {
    if (key !== "emailDomain" && rules[key as RuleKey] === message)
      return t(`validation.${key as RuleKey}` as MessageKey);
  }
  if (message.startsWith(domainPrefix) && message.endsWith(domainSuffix)) {
    const domain = message.slice(domainPrefix.length, message.length - domainSuffix.length);
    return t("validation.emailDomain", { domain });
  }
  return message;
}
