/** Short German texts of the kind field staff type into the platform. */
export const NOTE_TEXTS = [
  'Patientin wünscht Lieferung nur vormittags.',
  'Tochter hat angerufen, Versorgung läuft gut.',
  'Hausbesuch durchgeführt, Hautzustand unauffällig.',
  'Bitte vor Lieferung telefonisch ankündigen.',
  'Neues Rezept beim Hausarzt angefordert.',
  'Patient ist bis Monatsende im Krankenhaus.',
  'Menge reicht nicht, Bedarf wird neu berechnet.',
  'Pflegedienst übernimmt den Verbandwechsel.',
] as const;

export const HISTORY_STATUSES = ['Neuanlage', 'Geändert', 'Versorgung beendet'] as const;
export const WOUND_LOCATIONS = ['Unterschenkel links', 'Sakralbereich', 'Ferse rechts'] as const;

/** Form templates whose completed documents the platform serves as PDF or XML. */
export const DOCUMENT_TEMPLATES = [
  'Lieferschein',
  'Empfangsbestätigung',
  'Einverständniserklärung Datenschutz',
  'Wunddokumentation',
  'Antrag auf Kostenübernahme',
] as const;

export const DELIVERY_INFORMATION = [
  'Bei Nachbarn abgeben',
  'Klingel defekt, bitte anrufen',
  'Lieferung an die Station',
  '',
] as const;

export const CARRIERS = [
  {
    name: 'DHL',
    link: 'https://www.dhl.de/de/privatkunden/dhl-sendungsverfolgung.html?piececode=',
  },
  { name: 'DPD', link: 'https://tracking.dpd.de/status/de_DE/parcel/' },
  { name: 'GLS', link: 'https://gls-group.com/DE/de/paketverfolgung?match=' },
] as const;
