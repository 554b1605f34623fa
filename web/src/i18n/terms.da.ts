import type { TermsSection } from "./terms.types";

/** Vilkår for brug (dansk). Ni afsnit, i den rækkefølge spec §2 angiver. */
export const termsDa: TermsSection[] = [
  {
    id: "brug",
    title: "1. Brug af Vidensbank",
    paragraphs: [
      "Vidensbank er sekretariatets interne værktøj til at finde viden, procedurer og vejledninger og til at stille spørgsmål til en AI-assistent. Værktøjet må kun bruges af sekretariatets medarbejdere og kun til arbejdsrelaterede formål.",
      "Du må ikke bruge Vidensbank til at behandle oplysninger, som du ikke har ret til at se, eller til formål, der strider mod lovgivning eller sekretariatets retningslinjer.",
    ],
  },
  {
    id: "adgang",
    title: "2. Adgang og sikkerhed",
    paragraphs: [
      "Adgang kræver en personlig konto oprettet med en email-adresse fra sekretariatet, og kontoen skal bekræftes via det link, vi sender til dig.",
    ],
    bullets: [
      "Du er ansvarlig for at holde dit password hemmeligt og må ikke dele din konto med andre.",
      "Vælg et password, du ikke bruger andre steder, og skift det straks, hvis du har mistanke om misbrug.",
      "Log ud, når du bruger en delt eller offentlig computer.",
      "Administratoren kan deaktivere eller slette konti, der misbruges eller ikke længere skal bruges.",
    ],
  },
  {
    id: "data",
    title: "3. Databehandling (GDPR)",
    paragraphs: [
      "Vi behandler personoplysninger i overensstemmelse med databeskyttelsesforordningen (GDPR) og databeskyttelsesloven. Sekretariatet er dataansvarlig.",
      "Vi gemmer dine kontooplysninger (navn, email, brugernavn), dine præferencer, dine samtaler med AI-assistenten, din søgehistorik og dine bogmærker, så du kan finde dem igen, og så værktøjet kan forbedres. Vi registrerer desuden aktiviteter som login og søgninger i en aktivitetslog af hensyn til sikkerhed og drift.",
      "Du har ret til indsigt i, berigtigelse af og sletning af dine oplysninger. Når din konto slettes, slettes dine samtaler, bogmærker og præferencer også. Skriv ikke følsomme personoplysninger om borgere, medlemmer eller kolleger i chatten, medmindre det er nødvendigt og lovligt.",
    ],
  },
  {
    id: "ai",
    title: "4. AI-assistenten",
    paragraphs: [
      "AI-assistenten formulerer svar ud fra dokumenterne i Vidensbank ved hjælp af en ekstern AI-tjeneste. Svarene kan være ufuldstændige, forældede eller forkerte.",
      "Kontrollér altid svarene mod de officielle kilder, før du handler på dem. Assistentens svar er ikke juridisk rådgivning og kan ikke erstatte en faglig vurdering.",
    ],
  },
  {
    id: "tredjepart",
    title: "5. Tredjepartsintegrationer",
    paragraphs: [
      "Vidensbank henter dokumenter fra et eksternt arbejdsområde (Notion) via dets API og sender spørgsmål og relevante uddrag af dokumenter til en ekstern AI-tjeneste (via et AI-API) for at kunne besvare dem.",
      "Disse leverandører behandler data efter deres egne vilkår og vores databehandleraftaler. Vi sender kun de oplysninger, der er nødvendige for at levere funktionen.",
    ],
  },
  {
    id: "ansvar",
    title: "6. Ansvarsbegrænsning",
    paragraphs: [
      "Vidensbank stilles til rådighed, som den er. Sekretariatet tilstræber, at indholdet er korrekt og opdateret, men garanterer ikke for fuldstændighed eller nøjagtighed og er ikke ansvarlig for beslutninger truffet alene på grundlag af indhold eller AI-svar fra værktøjet.",
    ],
  },
  {
    id: "support",
    title: "7. Support og vedligeholdelse",
    paragraphs: [
      "Vi vedligeholder og opdaterer Vidensbank løbende. Det kan betyde korte perioder, hvor værktøjet ikke er tilgængeligt. Planlagt vedligeholdelse varsles så vidt muligt på forhånd.",
      "Oplever du fejl eller forkert indhold, så kontakt administratoren, så vi kan rette det.",
    ],
  },
  {
    id: "aendringer",
    title: "8. Ændringer af vilkårene",
    paragraphs: [
      "Vi kan ændre disse vilkår, når værktøjet, lovgivningen eller vores leverandører ændrer sig. Væsentlige ændringer meddeles i Vidensbank. Ved fortsat brug efter en ændring accepterer du de opdaterede vilkår.",
    ],
  },
  {
    id: "kontakt",
    title: "9. Kontakt",
    paragraphs: [
      "Har du spørgsmål til vilkårene, til behandlingen af dine personoplysninger eller ønsker du at gøre brug af dine rettigheder, så kontakt sekretariatets administrator af Vidensbank.",
    ],
  },
];
