/** GDS date formats: `20OCT` in entries and displays, ISO dates in the store. */
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** `2026-10-20` → `20OCT`. */
export function gdsDate(iso: string): string {
  return `${iso.slice(8, 10)}${MONTHS[Number(iso.slice(5, 7)) - 1]}`;
}

/**
 * `20OCT` → the ISO date of its next occurrence on or after `today` (ISO), as a GDS reads dates
 * without a year; null when the day or month is not valid.
 */
export function isoFromGds(ddmmm: string, today: string): string | null {
  const m = /^(\d{1,2})([A-Z]{3})$/.exec(ddmmm);
  if (!m) return null;
  const month = MONTHS.indexOf(m[2]);
  const day = Number(m[1]);
  if (month < 0 || day < 1) return null;
  for (const year of [Number(today.slice(0, 4)), Number(today.slice(0, 4)) + 1]) {
    const d = new Date(Date.UTC(year, month, day));
    if (d.getUTCMonth() !== month) return null;
    const iso = d.toISOString().slice(0, 10);
    if (iso >= today) return iso;
  }
  return null;
}

/** Day of the week 1 (Mon) .. 7 (Sun) of an ISO date, as availability lines show it. */
export function dayOfWeek(iso: string): number {
  return ((new Date(`${iso}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
}
