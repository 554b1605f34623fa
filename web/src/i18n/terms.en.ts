import type { TermsSection } from "./terms.types";

/** Terms of use (English). Same nine sections as the Danish text. */
export const termsEn: TermsSection[] = [
  {
    id: "brug",
    title: "1. Use of Vidensbank",
    paragraphs: [
      "Vidensbank is the secretariat's internal tool for finding knowledge, procedures and guidance and for asking an AI assistant questions. It may only be used by the secretariat's staff and only for work purposes.",
      "You may not use Vidensbank to process information you are not entitled to see, or for purposes that break the law or the secretariat's guidelines.",
    ],
  },
  {
    id: "adgang",
    title: "2. Access and security",
    paragraphs: [
      "Access requires a personal account created with an email address from the secretariat, and the account must be confirmed through the link we send you.",
    ],
    bullets: [
      "You are responsible for keeping your password secret and may not share your account.",
      "Choose a password you do not use elsewhere and change it at once if you suspect misuse.",
      "Log out when you use a shared or public computer.",
      "The administrator may deactivate or delete accounts that are misused or no longer needed.",
    ],
  },
  {
    id: "data",
    title: "3. Data handling (GDPR)",
    paragraphs: [
      "We process personal data in accordance with the General Data Protection Regulation (GDPR) and the Danish Data Protection Act. The secretariat is the data controller.",
      "We store your account details (name, email, username), your preferences, your conversations with the AI assistant, your search history and your bookmarks so you can find them again and so the tool can be improved. We also record activities such as sign-ins and searches in an activity log for security and operations.",
      "You have the right to access, rectify and erase your data. When your account is deleted, your conversations, bookmarks and preferences are deleted too. Do not write sensitive personal data about citizens, members or colleagues in the chat unless it is necessary and lawful.",
    ],
  },
  {
    id: "ai",
    title: "4. The AI assistant",
    paragraphs: [
      "The AI assistant writes answers from the documents in Vidensbank using an external AI service. Answers may be incomplete, outdated or wrong.",
      "Always check answers against the official sources before acting on them. The assistant's answers are not legal advice and cannot replace a professional assessment.",
    ],
  },
  {
    id: "tredjepart",
    title: "5. Third-party integrations",
    paragraphs: [
      "Vidensbank fetches documents from an external workspace (Notion) through its API and sends questions and relevant excerpts of documents to an external AI service (through an AI API) to answer them.",
      "These providers process data under their own terms and our data processing agreements. We send only the information needed to provide the feature.",
    ],
  },
  {
    id: "ansvar",
    title: "6. Limitation of liability",
    paragraphs: [
      "Vidensbank is provided as is. The secretariat aims to keep the content correct and up to date but does not guarantee completeness or accuracy and is not liable for decisions made solely on the basis of content or AI answers from the tool.",
    ],
  },
  {
    id: "support",
    title: "7. Support and maintenance",
    paragraphs: [
      "We maintain and update Vidensbank continuously. This may mean short periods when the tool is unavailable. Planned maintenance is announced in advance where possible.",
      "If you find errors or wrong content, contact the administrator so we can fix it.",
    ],
  },
  {
    id: "aendringer",
    title: "8. Changes to the terms",
    paragraphs: [
      "We may change these terms when the tool, the law or our providers change. Significant changes are announced in Vidensbank. By continuing to use the tool after a change you accept the updated terms.",
    ],
  },
  {
    id: "kontakt",
    title: "9. Contact",
    paragraphs: [
      "If you have questions about the terms or the processing of your personal data, or wish to exercise your rights, contact the secretariat's Vidensbank administrator.",
    ],
  },
];
