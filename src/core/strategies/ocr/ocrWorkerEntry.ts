/**
 * The OCR worker thread's entry, bundled by `esbuild.mjs` as `dist/ocr-worker.js`: tesseract.js's
 * own node worker script, plus one guard. When the Tesseract core cannot start (its .wasm
 * missing or damaged), the script leaves a rejected promise unhandled; that ends the thread
 * with an 'error' event nobody listens to, which takes the whole host process down (the CLI,
 * or every extension in the extension host). Here the failure is sent back as the rejection of
 * the job in flight, so the engine's caller sees an error and vision_ocr keeps the image, and
 * the broken thread then stops.
 */
import { parentPort } from 'node:worker_threads';
import { describeError } from '../../errors';

/** The fields of a tesseract.js job message that route its answer. */
interface JobPacket {
  readonly jobId?: unknown;
  readonly workerId?: unknown;
  readonly action?: unknown;
}

let current: JobPacket = {};

function failCurrentJob(error: unknown): void {
  const data = describeError(error);
  parentPort?.postMessage({ jobId: current.jobId, workerId: current.workerId, action: current.action, status: 'reject', data });
  // A thread whose core failed cannot serve another job; ending it lets the host process exit.
  setImmediate(() => process.exit(1));
}

if (parentPort) {
  // Registered before the script's own listener, so it sees each job first.
  parentPort.on('message', (packet: JobPacket) => {
    current = packet;
  });
  process.on('unhandledRejection', failCurrentJob);
  process.on('uncaughtException', failCurrentJob);
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
require('tesseract.js/src/worker-script/node/index.js');
