import { PRESCRIPTION_TYPE } from '../../../contract/index.js';

/**
 * The therapies of a homecare supplier. The platform's Therapy enumeration has no published
 * names or values; these are the simulator's own, with the name a single order may carry
 * instead of the number.
 */
export interface Therapy {
  id: number;
  name: string;
  label: string;
  therapyTypeIds: readonly number[];
  /** Product group prefix of the statutory aid directory (Hilfsmittelverzeichnis), if any. */
  aidGroup?: string;
  prescriptionType: number;
  /** ICD-10 code and text a care arrangement of this therapy typically names. */
  diagnosis: string;
  articleNames: readonly string[];
  manufacturers: readonly string[];
}

export const THERAPIES: readonly [Therapy, ...Therapy[]] = [
  {
    id: 1,
    name: 'Stoma',
    label: 'Stomaversorgung',
    therapyTypeIds: [11, 12, 13],
    aidGroup: '29.26',
    prescriptionType: PRESCRIPTION_TYPE.AdisForConsumption,
    diagnosis: 'Z93.2 Vorhandensein eines Ileostomas',
    articleNames: [
      'Stomabeutel geschlossen, hautfarben',
      'Ausstreifbeutel transparent',
      'Basisplatte plan 50 mm',
      'Hautschutzpaste 60 g',
      'Urostomiebeutel mit Rücklaufsperre',
      'Hautschutzring konvex',
    ],
    manufacturers: ['Coloplast', 'Hollister', 'ConvaTec', 'B. Braun', 'Dansac'],
  },
  {
    id: 2,
    name: 'Incontinence',
    label: 'Inkontinenzversorgung',
    therapyTypeIds: [21, 22],
    aidGroup: '15.25',
    prescriptionType: PRESCRIPTION_TYPE.AdisForConsumption,
    diagnosis: 'N39.3 Belastungsinkontinenz',
    articleNames: [
      'Einmalkatheter Nelaton CH 12',
      'Beinbeutel 500 ml',
      'Inkontinenzvorlage Super',
      'Inkontinenzpants Gr. M',
      'Kondomurinal 30 mm',
    ],
    manufacturers: ['Hartmann', 'Essity', 'Coloplast', 'Teleflex', 'Ontex'],
  },
  {
    id: 3,
    name: 'WoundCare',
    label: 'Wundversorgung',
    therapyTypeIds: [31, 32],
    prescriptionType: PRESCRIPTION_TYPE.Dressings,
    diagnosis: 'L89.2 Dekubitus 3. Grades',
    articleNames: [
      'Schaumverband 10 x 10 cm',
      'Hydrokolloidverband 15 x 15 cm',
      'Alginat-Kompresse 5 x 5 cm',
      'Wundspüllösung 350 ml',
      'Silberverband 10 x 20 cm',
    ],
    manufacturers: ['Hartmann', 'Mölnlycke', 'Smith & Nephew', 'Lohmann & Rauscher'],
  },
  {
    id: 4,
    name: 'EnteralNutrition',
    label: 'Enterale Ernährung',
    therapyTypeIds: [41, 42],
    aidGroup: '03.21',
    prescriptionType: PRESCRIPTION_TYPE.TubeFeeding,
    diagnosis: 'R63.3 Ernährungsprobleme und unsachgemäße Ernährung',
    articleNames: [
      'Trinknahrung hochkalorisch Vanille 200 ml',
      'Sondennahrung Multi Fibre 500 ml',
      'Überleitgerät für Ernährungspumpe',
      'Enteralspritze 60 ml',
    ],
    manufacturers: ['Fresenius Kabi', 'Nutricia', 'Nestlé Health Science', 'Abbott'],
  },
  {
    id: 5,
    name: 'Tracheostomy',
    label: 'Tracheostomaversorgung',
    therapyTypeIds: [51],
    aidGroup: '12.24',
    prescriptionType: PRESCRIPTION_TYPE.AidsForUse,
    diagnosis: 'Z93.0 Vorhandensein eines Tracheostomas',
    articleNames: [
      'Trachealkanüle gefenstert Gr. 8',
      'Kanülenhalteband',
      'Absaugkatheter CH 14',
      'HME-Filter',
    ],
    manufacturers: ['Fahl Medizintechnik', 'Atos Medical', 'Teleflex'],
  },
  {
    id: 6,
    name: 'NursingAids',
    label: 'Pflegehilfsmittel',
    therapyTypeIds: [61],
    aidGroup: '54.99',
    prescriptionType: PRESCRIPTION_TYPE.NursingAids,
    diagnosis: 'Z74.1 Notwendigkeit der Hilfestellung bei der Körperpflege',
    articleNames: [
      'Einmalhandschuhe Nitril Gr. M',
      'Händedesinfektion 500 ml',
      'Bettschutzeinlage 60 x 90 cm',
      'Mundschutz OP-Maske',
    ],
    manufacturers: ['Hartmann', 'Schülke', 'Ecolab', 'Meditrade'],
  },
];

export const PACKAGING_UNITS = [
  { unit: 'Stück', quantities: [1] },
  { unit: 'Packung', quantities: [5, 10, 30] },
  { unit: 'Karton', quantities: [60, 100, 120] },
] as const;

/** Devices a supplier lends to patients and services regularly. */
export const DEVICE_NAMES = [
  'Ernährungspumpe',
  'Sekretabsauggerät',
  'Inhalationsgerät',
  'Sauerstoffkonzentrator',
  'Anti-Dekubitus-Wechseldruckmatratze',
  'Pulsoximeter',
] as const;
