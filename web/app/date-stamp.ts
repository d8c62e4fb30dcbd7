/**
 * A run's recorded date as the explorer shows it: minutes, in UTC, saying so. config.json's
 * `provenance.createdAt` is an ISO instant (`new Date().toISOString()`, UTC); shown without its zone,
 * "2026-12-01 07:58" read as the reader's local time — a day off in UTC+14 (Pacific/Kiritimati) or
 * UTC−3:30 (America/St_Johns) — and an instant written with an offset lost it. The same instant is
 * the same text on every machine and in every time zone; text that is no such instant (no zone: a
 * local time of some machine) is shown as it is.
 */
/** An ISO instant with its zone (Z or ±hh:mm): one without is a local time to Date.parse, another instant in each time zone. */
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;

const pad = (n: number) => String(n).padStart(2, '0');

export function utcStamp(d: string | null | undefined): string {
  if (!d) return '–';
  const t = ISO.test(d) ? Date.parse(d) : Number.NaN;
  if (!Number.isFinite(t)) return d;
  const x = new Date(t);
  return `${x.getUTCFullYear()}-${pad(x.getUTCMonth() + 1)}-${pad(x.getUTCDate())} ${pad(x.getUTCHours())}:${pad(x.getUTCMinutes())} UTC`;
}
