import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The folder holding the project's package.json. Code runs both from src/ (tsx) and compiled from dist/src/, so a
 * fixed number of `..` from __dirname would land in dist/ for the compiled build; walking up finds the same folder
 * either way (in the image too, where package.json sits beside dist/).
 */
export function findProjectRoot(from: string = __dirname): string {
  let current = path.resolve(from);
  for (;;) {
    if (existsSync(path.join(current, 'package.json'))) return current;
    const parent = path.dirname(current);
    if (parent === current) throw new Error(`no package.json above ${from}`);
    current = parent;
  }
}

export const PROJECT_ROOT = findProjectRoot();
