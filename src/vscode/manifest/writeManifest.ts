/**
 * Writes Herald's contributions into package.json, touching only the keys this code owns
 * (`contributes`, `activationEvents`) so concurrent `npm install --save` edits survive.
 *   node --import tsx src/vscode/manifest/writeManifest.ts
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createStrategies } from '../../core/strategies/index';
import { manifestContributions } from './contributes';

const file = path.resolve(process.argv[2] ?? 'package.json');
const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
const { contributes, activationEvents } = manifestContributions(createStrategies({}));
manifest.activationEvents = activationEvents;
manifest.contributes = contributes;
fs.writeFileSync(file, JSON.stringify(manifest, null, 2) + '\n');
console.log(`Herald: wrote contributes and activationEvents to ${file}`);
