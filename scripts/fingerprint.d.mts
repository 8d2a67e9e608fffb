export function fingerprint(root: string): string;
export const STAMP: string;
export function isBuilt(root: string): boolean;
