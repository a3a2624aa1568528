/**
 * The help texts of the live-call flags `run`, `optimize` and `campaign` share, each naming its
 * effective default from {@link LIVE_MODEL_DEFAULTS} (the same constants
 * `resolveLiveModelConfig` falls back to) and the environment variable that comes first.
 * Commander's own default is not used: it would hide the environment variable.
 */
import { LIVE_MODEL_DEFAULTS as D } from '../models/config.js';

/** Descriptions by flag: `timeout`, `maxRetries`, `maxRetryAfter`, `callDeadline`, `bodyTimeout`. */
export const LIVE_FLAG_HELP = {
  timeout: `per-attempt timeout in seconds (default: SERVICEGYM_TIMEOUT, else ${D.timeoutSeconds})`,
  maxRetries: `retries on 429/5xx/timeouts (default: SERVICEGYM_MAX_RETRIES, else ${D.maxRetries})`,
  maxRetryAfter: `longest retry-after wait honoured; longer ones are cut to it (default: SERVICEGYM_MAX_RETRY_AFTER, else ${D.maxRetryAfterSeconds})`,
  callDeadline: `total time for one model call across attempts and waits (default: SERVICEGYM_CALL_DEADLINE, else ${D.callDeadlineSeconds})`,
  bodyTimeout: `an attempt whose body sends no byte for this long is retried (default: SERVICEGYM_BODY_TIMEOUT, else ${D.bodyTimeoutSeconds})`,
} as const;
