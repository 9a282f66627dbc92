/** The kinds of object the change feed reports (docs/api.md "Told when anything changes"). */
export const changeKinds = ['booking', 'task', 'calendar_day', 'property', 'listing', 'thread', 'message'] as const;
export type ChangeKind = (typeof changeKinds)[number];

export const changeOps = ['upsert', 'delete'] as const;
export type ChangeOp = (typeof changeOps)[number];
