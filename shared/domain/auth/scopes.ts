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

export function isScope(s: string): s is Scope {
  return (scopes as readonly string[]).includes(s);
}
