// A consumer's project for the type tests: a temporary folder whose node_modules/rulestack
// is this repository (as installed: its package.json exports), and the tsc to compile it.
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(fileURLToPath(new URL('../../', import.meta.url)));
export const TSC = path.join(ROOT, 'node_modules', '.bin', 'tsc');

/** Creates the folder; remove() deletes it. */
export function consumerApp(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(ROOT, path.join(dir, 'node_modules', 'rulestack'), 'dir');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
