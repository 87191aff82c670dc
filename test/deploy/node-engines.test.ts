/**
 * The Node the product supports is the image's (Dockerfile FROM): package.json `engines` (and the lockfile's copy)
 * names that major line and no other, so `npm install` on any other Node warns EBADENGINE, as the README says.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

test("package.json engines is the image's Node major line, in the lockfile too", () => {
  const imageNode = /^FROM node:(\d+)\.\d+\.\d+-/m.exec(read('Dockerfile'))?.[1];
  expect(imageNode).toBeDefined();
  const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines;
  const locked = (JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: object }> })
    .packages[''];
  expect(engines).toEqual({ node: `${imageNode!}.x` });
  expect(locked?.engines).toEqual(engines);
});
