/** The English model package for tesseract.js: where its traineddata lives. */
declare module '@tesseract.js-data/eng' {
  const model: { readonly code: string; readonly gzip: boolean; readonly langPath: string };
  export = model;
}
