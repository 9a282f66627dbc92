export const scopes = [
  'messaging',
  'pricing-management',
  'smart-locks',
  'external-cleaning-management',
  'calendar-control',
  'availability-control',
  'listings',
  'tasks',
  'direct-bookings',
  'reports',
  'insurance-settings',
] as const;
export type Scope = (typeof scopes)[number];

/** Who reads bookings, a token holding any one: get-bookings, and the change feed's booking changes. */
export const bookingReadScopes = ['messaging', 'pricing-management', 'smart-locks', 'external-cleaning-management'] as const satisfies readonly Scope[];
/** Who reads the calendar, a token holding any one: get-calendar-data, and the change feed's calendar_day changes. */
export const calendarReadScopes = ['calendar-control', 'direct-bookings', 'pricing-management', 'external-cleaning-management', 'availability-control'] as const satisfies readonly Scope[];

export function isScope(s: string): s is Scope {
  return (scopes as readonly string[]).includes(s);
}
