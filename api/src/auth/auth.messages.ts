/** The Danish texts of the account flows (the web client translates them by their exact text). */
export const authMessages = {
  registered: "Bruger oprettet. Tjek din email for at bekræfte din konto.",
  emailTaken: "Der findes allerede en bruger med denne email",
  usernameTaken: "Brugernavnet er allerede taget",
  verified: "Din email er bekræftet. Du kan nu logge ind.",
  verificationInvalid: "Bekræftelseslinket er ugyldigt eller udløbet",
  resendSent: "Hvis kontoen findes og ikke er bekræftet, er der sendt en ny bekræftelsesemail.",
  forgotSent: "Hvis der findes en konto med denne email, er der sendt et link til at nulstille adgangskoden.",
  resetInvalid: "Nulstillingslinket er ugyldigt eller udløbet",
  resetDone: "Din adgangskode er nulstillet. Du kan nu logge ind.",
  currentPasswordWrong: "Nuværende adgangskode er forkert",
  welcome: (name: string) => `Velkommen tilbage, ${name}!`,
} as const;
