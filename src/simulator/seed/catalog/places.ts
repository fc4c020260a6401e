/** Real German postal codes with their cities; the seed uses them first. */
export const POSTAL_CODES: ReadonlyArray<readonly [string, string]> = [
  ['10115', 'Berlin'],
  ['20095', 'Hamburg'],
  ['80331', 'München'],
  ['50667', 'Köln'],
  ['60311', 'Frankfurt am Main'],
  ['70173', 'Stuttgart'],
  ['40213', 'Düsseldorf'],
  ['44135', 'Dortmund'],
  ['45127', 'Essen'],
  ['28195', 'Bremen'],
  ['04109', 'Leipzig'],
  ['01067', 'Dresden'],
  ['30159', 'Hannover'],
  ['90402', 'Nürnberg'],
  ['47051', 'Duisburg'],
  ['44787', 'Bochum'],
  ['42103', 'Wuppertal'],
  ['33602', 'Bielefeld'],
  ['53111', 'Bonn'],
  ['48143', 'Münster'],
  ['76133', 'Karlsruhe'],
  ['68159', 'Mannheim'],
  ['86150', 'Augsburg'],
  ['65183', 'Wiesbaden'],
  ['41061', 'Mönchengladbach'],
  ['38100', 'Braunschweig'],
  ['24103', 'Kiel'],
  ['09111', 'Chemnitz'],
  ['06108', 'Halle (Saale)'],
  ['39104', 'Magdeburg'],
  ['79098', 'Freiburg im Breisgau'],
  ['23552', 'Lübeck'],
  ['26122', 'Oldenburg'],
  ['55116', 'Mainz'],
  ['18055', 'Rostock'],
  ['99084', 'Erfurt'],
  ['93047', 'Regensburg'],
  ['34117', 'Kassel'],
];

export const REGION_LABELS = ['Nord', 'Süd', 'West', 'Ost', 'Mitte'] as const;

/** Statutory health insurers (Krankenkassen) as they appear on insurance cards. */
export const PAYER_NAMES = [
  'AOK Bayern',
  'AOK Nordost',
  'AOK Niedersachsen',
  'AOK Rheinland/Hamburg',
  'Techniker Krankenkasse',
  'BARMER',
  'DAK-Gesundheit',
  'IKK classic',
  'KKH Kaufmännische Krankenkasse',
  'hkk Krankenkasse',
  'Knappschaft',
  'SBK Siemens-Betriebskrankenkasse',
  'Mobil Krankenkasse',
  'HEK Hanseatische Krankenkasse',
] as const;

export const DOCTOR_TITLES = ['Dr. med.', 'Dr. med.', 'Prof. Dr. med.', 'Dr.', ''] as const;
export const DOCTOR_SPECIALTIES = [
  ['Allgemeinmedizin', '01'],
  ['Innere Medizin', '23'],
  ['Urologie', '67'],
  ['Chirurgie', '10'],
  ['Dermatologie', '21'],
] as const;

export const INSTITUTION_NAMES = {
  hospital: ['Klinikum {city}', 'Evangelisches Krankenhaus {city}', 'St.-Marien-Hospital {city}'],
  nursingHome: ['Seniorenzentrum {city}', 'Haus am Park {city}', 'Caritas-Altenheim St. Josef'],
  nursingService: ['Pflegedienst {lastName}', 'Diakoniestation {city}', 'Sozialstation {city}'],
  pharmacy: ['Adler-Apotheke', 'Löwen-Apotheke', 'Stern-Apotheke', 'Rathaus-Apotheke'],
} as const;
