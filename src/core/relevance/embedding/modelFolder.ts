/**
 * The embedding model folder Herald loads (from a setting, or downloaded by the extension
 * into its global storage):
 *
 *   model.onnx          (or onnx/model.onnx, the Hugging Face export layout)
 *   tokenizer.json      (Hugging Face; WordPiece or BPE model) or vocab.txt (WordPiece)
 *   herald-model.json   optional manifest: schema, name, dimension, maxTokens, pooling, and a
 *                       SHA-256 per file, checked before loading
 *
 * or Herald's own static model (the one the VSIX ships, see staticModel.ts), whose manifest
 * says `"kind": "static"`:
 *
 *   model.bin           the feature table (its own tokenizer is Herald's search tokenizer)
 *   herald-model.json   required: name, version, dimension and the file's SHA-256
 *
 * Every problem is an error that names the folder, the file and what to do.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { describeError } from '../../errors';

export const MODEL_MANIFEST_FILE = 'herald-model.json';
export const MODEL_MANIFEST_SCHEMA_VERSION = 1;

const manifestSchema = z.object({
  schema: z.number(),
  name: z.string().min(1),
  /** `onnx` (the default) or `static` (Herald's own model.bin). */
  kind: z.enum(['onnx', 'static']).optional(),
  /** The model's own version, for reports and decisions. */
  version: z.string().min(1).optional(),
  dimension: z.number().int().positive().optional(),
  maxTokens: z.number().int().min(8).max(8192).optional(),
  pooling: z.enum(['mean', 'cls']).optional(),
  files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
});

/** What `herald-model.json` says about a model. */
export type ModelManifest = z.infer<typeof manifestSchema>;

/** Resolved paths and settings of an ONNX model folder. */
export interface ModelFolder {
  readonly kind: 'onnx';
  readonly directory: string;
  readonly name: string;
  readonly modelFile: string;
  readonly tokenizerFile: string;
  readonly tokenizerFormat: 'tokenizer.json' | 'vocab.txt';
  readonly manifest?: ModelManifest;
}

/** Resolved paths of a static model folder (its manifest is required and checked). */
export interface StaticModelFolder {
  readonly kind: 'static';
  readonly directory: string;
  /** The manifest's name, with its version when it has one. */
  readonly name: string;
  readonly modelFile: string;
  readonly manifest: ModelManifest;
}

/** The static model's weights file. */
export const STATIC_MODEL_FILE_NAME = 'model.bin';

/** SHA-256 of a file, lower-case hex. */
export function sha256File(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/**
 * Checks every file the manifest lists against its SHA-256. Throws an error naming the first
 * missing or damaged file; returns the number of files checked.
 */
export function verifyChecksums(directory: string, files: Readonly<Record<string, string>>): number {
  let checked = 0;
  for (const [name, expected] of Object.entries(files)) {
    const file = path.join(directory, name);
    if (!fs.existsSync(file)) throw new Error(`Herald: the embedding model file ${file} is missing; download the model again or fix the folder`);
    const actual = sha256File(file);
    if (actual !== expected.toLowerCase()) {
      throw new Error(`Herald: the embedding model file ${file} is damaged (SHA-256 ${actual}, expected ${expected}); download the model again`);
    }
    checked++;
  }
  return checked;
}

/** An ONNX model folder, or an error saying the folder holds another kind. */
export function resolveOnnxModelFolder(directory: string): ModelFolder {
  const folder = resolveModelFolder(directory);
  if (folder.kind !== 'onnx') throw new Error(`Herald: ${directory} holds a static model, not an ONNX one`);
  return folder;
}

/** Reads and checks a model folder: files present, manifest valid, checksums matching. */
export function resolveModelFolder(directory: string): ModelFolder | StaticModelFolder {
  if (!fs.existsSync(directory) || !fs.statSync(directory).isDirectory()) {
    throw new Error(`Herald: the embedding model folder ${directory} does not exist; check the setting or download the model`);
  }
  let manifest: ModelManifest | undefined;
  const manifestFile = path.join(directory, MODEL_MANIFEST_FILE);
  if (fs.existsSync(manifestFile)) {
    let value: unknown;
    try {
      value = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
    } catch (error) {
      throw new Error(`Herald: ${manifestFile} is not valid JSON (${describeError(error)})`);
    }
    const parsed = manifestSchema.safeParse(value);
    if (!parsed.success) throw new Error(`Herald: ${manifestFile} is not a valid model manifest: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`);
    if (parsed.data.schema !== MODEL_MANIFEST_SCHEMA_VERSION) {
      throw new Error(`Herald: ${manifestFile} has schema ${parsed.data.schema}, this version of Herald reads schema ${MODEL_MANIFEST_SCHEMA_VERSION}`);
    }
    manifest = parsed.data;
    if (manifest.kind === 'static' && !(STATIC_MODEL_FILE_NAME in manifest.files)) throw new Error(`Herald: ${manifestFile} names a static model but no checksum of ${STATIC_MODEL_FILE_NAME}`);
    verifyChecksums(directory, manifest.files);
    if (manifest.kind === 'static') {
      return { kind: 'static', directory, name: manifest.version ? `${manifest.name} ${manifest.version}` : manifest.name, modelFile: path.join(directory, STATIC_MODEL_FILE_NAME), manifest };
    }
  }
  const modelFile = [path.join(directory, 'model.onnx'), path.join(directory, 'onnx', 'model.onnx')].find((file) => fs.existsSync(file));
  if (!modelFile) throw new Error(`Herald: the embedding model folder ${directory} has no model.onnx (nor onnx/model.onnx)`);
  const tokenizerJson = path.join(directory, 'tokenizer.json');
  const vocabText = path.join(directory, 'vocab.txt');
  const tokenizerFormat = fs.existsSync(tokenizerJson) ? 'tokenizer.json' : fs.existsSync(vocabText) ? 'vocab.txt' : undefined;
  if (!tokenizerFormat) throw new Error(`Herald: the embedding model folder ${directory} has neither tokenizer.json nor vocab.txt`);
  return {
    kind: 'onnx',
    directory,
    name: manifest?.name ?? path.basename(directory),
    modelFile,
    tokenizerFile: tokenizerFormat === 'tokenizer.json' ? tokenizerJson : vocabText,
    tokenizerFormat,
    manifest,
  };
}
