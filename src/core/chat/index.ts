export * from './types';
export * from './convert';
export { FormatError } from './objects';
export { fromOpenAI, toOpenAI } from './openai';
export { fromAnthropic, toAnthropic } from './anthropic';
export { fromResponses, toResponses } from './responses';
export * from './toolOutput';
