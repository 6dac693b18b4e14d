/**
 * Writes Herald's contributions into package.json, touching only the keys this code owns
 * (`contributes`, `activationEvents`) so concurrent `npm install --save` edits survive, and
 * the strategy table and the strategy parameter tables into README.md between their markers.
 *   node --import tsx src/vscode/manifest/writeManifest.ts [package.json] [README.md]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createStrategies } from '../../core/strategies/index';
import { manifestContributions } from './contributes';
import { strategiesMarkdown, strategyOptionsMarkdown, withStrategies, withStrategyOptions } from './readmeOptions';

const file = path.resolve(process.argv[2] ?? 'package.json');
const readmeFile = path.resolve(process.argv[3] ?? path.join(path.dirname(file), 'README.md'));
const strategies = createStrategies({});
const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
const { contributes, activationEvents } = manifestContributions(strategies);
manifest.activationEvents = activationEvents;
manifest.contributes = contributes;
fs.writeFileSync(file, JSON.stringify(manifest, null, 2) + '\n');
fs.writeFileSync(readmeFile, withStrategies(withStrategyOptions(fs.readFileSync(readmeFile, 'utf8'), strategyOptionsMarkdown(strategies)), strategiesMarkdown(strategies)));
console.log(`Herald: wrote contributes and activationEvents to ${file}, the strategy table and options to ${readmeFile}`);
