export const IMAGES_DIR: string;
export function buildImages(options?: { quiet?: boolean }): Promise<unknown>;
