/**
 * The tools, cache and provider strategies and the read-only signals on real agent runs
 * (the trajectories rewritten as tool-calling conversations in both formats, with a coding
 * agent's ten tools): tools-block tokens saved and its stability, exact and shadow cache hits,
 * Anthropic breakpoints, time per request of each signal, and OCR on rendered screenshots.
 */
import { parseRequest, serializeRequest } from '../../src/core/chat';
import { Pipeline } from '../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../src/core/stash';
import { countBreakpoints, createCacheOptimizer } from '../../src/core/strategies/cacheOptimizer';
import { createCacheLint } from '../../src/core/strategies/cacheLint';
import { createContentCensus } from '../../src/core/strategies/contentCensus';
import { createContextQuality } from '../../src/core/strategies/contextQuality';
import { createProviderContextTrim } from '../../src/core/strategies/providerContextTrim';
import { createSemanticCache } from '../../src/core/strategies/semanticCache';
import { createToolCatalog } from '../../src/core/strategies/toolCatalog';
import { createToolSchemaCompression } from '../../src/core/strategies/toolSchemaCompression';
import { toolCallingTurns } from '../support/agentFixtures';
import { TesseractOcrEngine } from '../../src/core/strategies/ocr/ocrEngine';
import { hasTestFont, textScreenshot } from '../support/testImages';
import { createVisionOcr } from '../../src/core/strategies/visionOcr';
import { TokenCounter } from '../../src/core/tokens';
import { loadTrajectory, trajectoryNames } from '../support/sharedData';
import type { BenchReport } from './run';
import { median, percent, quantile } from './stats';

export async function bench(): Promise<BenchReport> {
  const names = trajectoryNames().slice(0, Number(process.env.HERALD_BENCH_TRAJECTORIES ?? 20));
  const tokens = new TokenCounter(200_000);
  const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
  const lines: string[] = [];
  const figures: Record<string, unknown> = {};

  // Tools block: catalog, description compression and stable order, over every request.
  let toolsBefore = 0;
  let toolsAfter = 0;
  let requests = 0;
  let stableTurns = 0;
  let breakpointRequests = 0;
  let overFour = 0;
  let trimmed = 0;
  let exactHits = 0;
  let shadowHits = 0;
  const signalMs: Record<string, number[]> = { content_census: [], context_quality: [], cache_lint: [] };
  for (const [index, name] of names.entries()) {
    const format = index % 2 === 0 ? 'openai' : 'anthropic';
    const pipeline = new Pipeline(
      [createSemanticCache(), createContentCensus(), createProviderContextTrim(), createToolCatalog(), createToolSchemaCompression(), createContextQuality(), createCacheLint(), createCacheOptimizer()],
      {}, { stash, tokens },
    );
    let previousTools: string | undefined;
    let sessionShadowHits = 0;
    for (const body of toolCallingTurns(loadTrajectory(name), format)) {
      const request = parseRequest(body);
      const result = await pipeline.run(request);
      requests++;
      toolsBefore += toolTokens(request, tokens);
      toolsAfter += toolTokens(result.request, tokens);
      const wire = JSON.stringify(serializeRequest(result.request).tools);
      if (previousTools === undefined || wire === previousTools) stableTurns++;
      previousTools = wire;
      const breakpoints = countBreakpoints(result.request);
      if (breakpoints > 0) breakpointRequests++;
      if (breakpoints > 4) overFour++;
      for (const decision of result.decisions) {
        if (decision.strategy in signalMs) signalMs[decision.strategy]!.push(decision.durationMs);
        if (decision.strategy === 'provider_context_trim' && decision.action === 'provider-trim-requested') trimmed++;
        if (decision.strategy === 'semantic_cache' && decision.details?.hit === true) exactHits++;
        // The session's running total, measured after each answer (the last answer's shows in no decision).
        if (decision.strategy === 'semantic_cache' && typeof decision.details?.shadowWouldHit === 'number') sessionShadowHits = decision.details.shadowWouldHit;
      }
      await pipeline.afterResponse(request, { answer: requests }, result.sessionId);
    }
    shadowHits += sessionShadowHits;
  }
  lines.push(`requests: ${requests} over ${names.length} trajectories (alternating OpenAI and Anthropic, 10 agent tools)`);
  lines.push(`tools block tokens: ${toolsBefore} → ${toolsAfter} (saved ${percent(toolsBefore - toolsAfter, toolsBefore)}: catalog (targets unknown here, so none) + description compression)`);
  lines.push(`tools block byte-identical to the previous turn: ${percent(stableTurns, requests)} of requests`);
  lines.push(`Anthropic requests with breakpoints: ${breakpointRequests}; with more than 4: ${overFour}`);
  lines.push(`provider_context_trim fired on ${trimmed} requests (trigger 60,000 estimated tokens)`);
  lines.push(`semantic_cache: ${exactHits} exact hits, ${shadowHits} shadow (normalised) would-hits; agent runs never repeat a request exactly`);
  for (const [id, values] of Object.entries(signalMs)) lines.push(`${id}: median ${median(values).toFixed(2)} ms, p95 ${quantile(values, 0.95).toFixed(2)} ms per request`);
  Object.assign(figures, { requests, toolsBefore, toolsAfter, stableTurns, breakpointRequests, overFour, trimmed, exactHits, shadowHits });

  // Exact repeats: every first request of a session sent twice (a client retry).
  const retry = new Pipeline([createSemanticCache()], {}, { stash, tokens });
  let served = 0;
  for (const name of names) {
    const body = toolCallingTurns(loadTrajectory(name), 'openai', { maxTurns: 1 })[0]!;
    const first = await retry.run(parseRequest(body));
    await retry.afterResponse(first.request, { answer: name }, first.sessionId);
    if ((await retry.run(parseRequest(structuredClone(body)))).response !== undefined) served++;
  }
  lines.push(`semantic_cache on retried requests: ${served} of ${names.length} repeats served from cache`);
  figures.retriedServed = served;

  // OCR: rendered screenshots of real trajectory output, swapped once they are history.
  if (hasTestFont()) {
    const engine = new TesseractOcrEngine();
    const started = performance.now();
    await engine.read(textScreenshot(['warm up']));
    const startupMs = performance.now() - started;
    const ocrMs: number[] = [];
    let recall = 0;
    let swapped = 0;
    let imageTokens = 0;
    let textTokens = 0;
    const samples = names.slice(0, 5).map((name) => loadTrajectory(name).messages[3]!.content.split('\n').filter((line) => line.trim().length > 0).slice(2, 12).map((line) => line.slice(0, 90)));
    for (const screen of samples) {
      const png = textScreenshot(screen);
      const body = { model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } }] }, { role: 'assistant', content: 'a listing' }, { role: 'user', content: 'ok' }] };
      const pipeline = new Pipeline([createVisionOcr({}, engine)], {}, { stash, tokens });
      const t0 = performance.now();
      const result = await pipeline.run(parseRequest(body), {});
      ocrMs.push(performance.now() - t0);
      const part = result.request.messages[0]!.parts[1]!;
      if (part.type !== 'text') continue;
      swapped++;
      const words = screen.join(' ').split(/\s+/).filter(Boolean);
      recall += words.filter((word) => part.text.includes(word)).length / words.length;
      imageTokens += tokens.countPart(parseRequest(body).messages[0]!.parts[1]!);
      textTokens += tokens.count(part.text);
    }
    await engine.dispose();
    lines.push(`vision_ocr: engine start ${startupMs.toFixed(0)} ms; per screenshot median ${median(ocrMs).toFixed(0)} ms; ${swapped} of ${samples.length} screenshots swapped (the rest under the confidence bar), word recall of the swapped ${percent(recall, swapped)}; their tokens ${imageTokens} (images, flat 765 each) → ${textTokens} (marker + text)`);
    Object.assign(figures, { ocrStartupMs: startupMs, ocrMedianMs: median(ocrMs), ocrSwapped: swapped, ocrRecall: swapped === 0 ? 0 : recall / swapped, imageTokens, textTokens });
  }
  return { title: 'Tools, cache and provider strategies, and the signals', lines, figures };
}

function toolTokens(request: { tools: readonly { name: string; description?: string; inputSchema?: unknown }[] }, tokens: TokenCounter): number {
  return request.tools.reduce((sum, tool) => sum + tokens.count(tool.name) + tokens.count(tool.description ?? '') + tokens.count(JSON.stringify(tool.inputSchema ?? null)), 0);
}
