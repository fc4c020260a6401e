/**
 * Every code an error of ours carries, with what it means and what the operator does about it.
 * An error thrown without a hint of its own carries the table's (shared/errors.ts). The page
 * docs/readme/errors.md shows this table; test/unit/shared/errorCodes.test.ts keeps the two
 * equal and finds a code spelled in src/ that the table lacks. Whether a code is retried is decided
 * where it is thrown, by its class (TransientError or PermanentError), not here.
 */
export interface ErrorCodeEntry {
  /** What happened, in the operator's words. */
  readonly meaning: string;
  /** What the operator does about it. */
  readonly hint: string;
}

export const ERROR_CODES = {
  // Without a code of their own: the message names what failed.
  TRANSIENT: {
    meaning: 'A failure that may pass by itself; the work is tried again on its schedule.',
    hint: 'Nothing at first; if the same message keeps coming, act on what it names.',
  },
  PERMANENT: {
    meaning:
      'A failure that would repeat on every try: a job is dead-lettered at once, a pull of that list stops.',
    hint: 'Act on what the message names, then `homecare-sync queue retry <id>` for a dead job.',
  },
  SETUP: {
    meaning: 'The setup is wrong (a config key, a file, a folder, a port); the command stops.',
    hint: 'Fix each problem the message lists, then start again.',
  },
  CONFIG: {
    meaning: 'The config file cannot be used; every problem is listed by its key.',
    hint: 'Fix each listed problem, then run `homecare-sync config check`.',
  },

  // The database (storage.path).
  STORE_LOCKED: {
    meaning: 'Another homecare-sync is using the database; the message names its process and host.',
    hint: 'Stop that one first, or give this one its own storage.path.',
  },
  STORE_FOREIGN_DATABASE: {
    meaning: 'storage.path is an SQLite file that homecare-sync did not create.',
    hint: 'Set storage.path to a new file (homecare-sync creates it); delete an empty foreign file.',
  },
  STORE_NO_WAL: {
    meaning: 'The database could not be switched to WAL journal mode.',
    hint: 'Put storage.path on a local file system.',
  },
  STORE_UNUSABLE: {
    meaning:
      'SQLite cannot use the file: not a database, damaged, read-only, locked by another process, or the disk is full.',
    hint: 'Act on what the message names: restore a backup, fix the permissions, stop the other process, free space.',
  },
  STORE_PATH_IS_FOLDER: {
    meaning: 'storage.path names a folder, not a file.',
    hint: 'Set storage.path to a file inside that folder.',
  },
  STORE_EMPTY_FILE: {
    meaning: 'The database file is empty, which homecare-sync never leaves it.',
    hint: 'Restore it from a backup, or delete it to start anew (every record is then pulled and handed to the ERP again).',
  },
  STORE_FILE: {
    meaning: 'The database file cannot be read or created.',
    hint: 'Give homecare-sync read and write access to the file and its folder.',
  },
  STORE_FOLDER: {
    meaning: 'The folder of storage.path cannot be created.',
    hint: 'Create it, or choose another storage.path.',
  },
  STORE_FILE_MODE: {
    meaning: 'The database file may be read by others and its mode cannot be set to 600.',
    hint: "Run homecare-sync as the file's owner.",
  },
  STORE_SCHEMA_TOO_NEW: {
    meaning: 'A newer homecare-sync has written the database.',
    hint: 'Upgrade homecare-sync, or use another file.',
  },
  STORE_SCHEMA_BEHIND: {
    meaning:
      'The database has an older schema, and the command (check --online) does not migrate it.',
    hint: 'Take a backup (homecare-sync backup <file>); the next start of the daemon migrates it.',
  },
  STORE_SCHEMA_DAMAGED: {
    meaning: 'The table that records the schema version is damaged.',
    hint: 'Restore the file from a backup, or set storage.path to a new file.',
  },
  STORE_DAMAGED: {
    meaning: "SQLite's quick_check found the database damaged.",
    hint: 'Restore the file from a backup, or set storage.path to a new file.',
  },
  STORE_FULL: {
    meaning:
      'The disk (or its quota) of the database is full: writes fail and are tried again; logged as one state while it lasts.',
    hint: 'Free space there; homecare-sync goes on by itself once there is room, nothing is lost.',
  },

  // Talking to the platform.
  NETWORK: {
    meaning:
      'A request got no whole answer (reset, timed out waiting, cut off); it is tried again.',
    hint: 'Nothing unless it persists; then check the platform, the proxy and platform.timeoutMs.',
  },
  UNREACHABLE: {
    meaning:
      'No connection to the platform could be made (refused, DNS, TLS, the proxy); requests pause for all resources.',
    hint: 'Check platform.baseUrl, DNS, the proxy and platform.caFile; the work goes on by itself once the platform is back.',
  },
  PLATFORM_UNREACHABLE: {
    meaning:
      'A request was not sent: the platform was unreachable a moment ago; the outage is logged as one state.',
    hint: 'Check that the platform (or the proxy in between) is up and reachable.',
  },
  RESOURCE_FAILING: {
    meaning:
      "A list request was not sent: that resource's list failed a moment ago (time-out or 5xx); the other resources go on.",
    hint: 'If it persists, ask the platform operator about this list, or raise platform.timeoutMs if it is only slow.',
  },
  BAD_BODY: {
    meaning: "The platform's answer is not the JSON its contract describes.",
    hint: 'Report it to the platform operator with the excerpt the error carries.',
  },
  TRUNCATED_BODY: {
    meaning: 'The connection ended before the list did; it is tried again.',
    hint: 'Nothing unless it keeps happening; then look at the proxy and the platform, not at the data.',
  },
  LIST_BOUND: {
    meaning:
      'A list went past one of its bounds (records, bytes, seconds): its pull stopped, its checkpoint stays.',
    hint: 'For a first pull of a large catalogue raise the bound the message names; otherwise report the endless list to the platform operator.',
  },
  CONTRACT_REFUSAL: {
    meaning: 'The platform contract of platform.variant forbids the request or change; not sent.',
    hint: 'Check platform.variant; otherwise fix the record in the ERP and send it again, and drop the dead job.',
  },

  // Handing records to the ERP.
  DELIVERY_RECORD_MISSING: {
    meaning: 'The version a hand-over job names was not kept, so it cannot go to the ERP.',
    hint: 'Drop the dead job; a newer version goes to the ERP when it is pulled.',
  },
  DELIVERY_WAITS_FOR_REFERENCE: {
    meaning: 'A record waits for a record it refers to that is not known yet; it is tried again.',
    hint: 'Nothing: it is handed over once they are pulled; if it stays, check that their resource is pulled.',
  },
  ERP_UNAVAILABLE: {
    meaning:
      'The ERP adapter could not take the record now (the outbox, the REST ERP); tried again.',
    hint: 'Check the ERP or the outbox folder the message names; the hand-over goes on by itself.',
  },
  ERP_REFUSED: {
    meaning: 'The ERP refused the record; the job is dead-lettered with its answer.',
    hint: "Fix what the ERP's answer names, then `homecare-sync queue retry <id>`.",
  },

  // Writing what the ERP says back to the platform.
  BAD_JOB: {
    meaning:
      'A push-back message lacks what it needs (a field, the order it is about, a packaging unit).',
    hint: 'Complete the message in the ERP and send it again; drop the dead job.',
  },
  NOT_MIRRORED: {
    meaning: 'The record was never pulled, so it cannot be acknowledged or redelivered safely.',
    hint: 'Pull it first (`homecare-sync sync <resource>`, or reset its checkpoint), then try again.',
  },
  NOT_KNOWN_YET: {
    meaning:
      'The order, patient or parent a job names is not known yet; tried again after the next pull.',
    hint: 'Nothing yet; if it stays, check the id the ERP sent.',
  },
  NOT_KNOWN: {
    meaning: 'The order, patient or parent a job names is still not known after its tries.',
    hint: 'Check the id the ERP sent and that its resource is pulled, then `homecare-sync queue retry <id>`.',
  },
  FORBIDDEN_TRANSITION: {
    meaning: 'The ERP reported an order status change the platform does not allow; not sent.',
    hint: 'Correct the status in the ERP, then drop this job.',
  },
  AMBIGUOUS_SALES_ID: {
    meaning: 'Several orders carry the salesId a message names.',
    hint: "Send the order's id instead of its salesId.",
  },
  WRONG_LEVEL: {
    meaning: 'A product group would sit on the wrong level of the hierarchy; not sent.',
    hint: 'Correct type or parentId in the ERP and send the group again.',
  },
  ATTACHMENT_FORBIDDEN: {
    meaning: 'The API key may not create attachments (HTTP 403).',
    hint: 'Ask the platform operator to allow this API key to create attachments, then retry the job.',
  },
  DUPLICATES_ON_PLATFORM: {
    meaning: 'The platform holds several records with the key of a record to create.',
    hint: 'Merge or archive the duplicates on the platform, then retry the job.',
  },
  CREATE_OUTCOME_UNKNOWN: {
    meaning:
      'A create was sent, no answer said whether it was made, and the platform offers no lookup.',
    hint: 'Look for it on the platform, then `queue retry <id>` (it is not there) or `queue drop <id>` (it is).',
  },

  // The operator's commands.
  QUEUE_JOB_NOT_FOUND: {
    meaning: 'No job in the queue has this id.',
    hint: '`homecare-sync queue list` shows the ids.',
  },
  QUEUE_JOB_NOT_DEAD: {
    meaning: '`queue retry` or `queue drop` of a job that is not dead.',
    hint: 'Nothing to do; `homecare-sync queue show <id>` shows its state.',
  },
  QUEUE_JOB_REPLACED: {
    meaning:
      'A newer job of the same record replaces this dead job; retrying it would send outdated data.',
    hint: 'Drop it: `homecare-sync queue drop <id>`.',
  },
  REDUCED_RECORD: {
    meaning:
      'Retention or `forget` reduced this record to ids, stamps and status, so it cannot be redelivered.',
    hint: 'Nothing: once it changes on the platform, its new version is pulled whole and handed over.',
  },
} as const satisfies Record<string, ErrorCodeEntry>;

/** `HTTP_404`, `HTTP_503`: the platform answered with that status; one row for them all. */
export type HttpStatusCode = `HTTP_${number}`;

export const HTTP_STATUS_CODES: ErrorCodeEntry & { code: string } = {
  code: 'HTTP_<status>',
  meaning:
    'The platform answered with this HTTP status: 5xx, 408 and 429 are tried again, others not.',
  hint: 'The message says what to do for the status: check platform.apiKey (401, 403), the id or platform.variant (404, 405), the record (other 4xx).',
};

export type ErrorCode = keyof typeof ERROR_CODES | HttpStatusCode;

const isTableCode = (code: string): code is keyof typeof ERROR_CODES =>
  Object.hasOwn(ERROR_CODES, code);

/** What the operator does about an error with this code. */
export function codeHint(code: ErrorCode): string {
  return isTableCode(code) ? ERROR_CODES[code].hint : HTTP_STATUS_CODES.hint;
}
