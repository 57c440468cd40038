/** The words of a shell command line, quotes removed: enough to find the files a `sh -c` script names. */
export function shellWords(script: string): string[] {
  const words: string[] = [];
  let cur = '';
  let quote: string | undefined;
  let has = false;
  for (let i = 0; i < script.length; i++) {
    const c = script[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < script.length) cur += script[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      has = true;
    } else if (c === '\\' && i + 1 < script.length) {
      cur += script[++i];
      has = true;
    } else if (/[\s;&|()<>`$]/.test(c)) {
      if (has || cur) words.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has || cur) words.push(cur);
  return words.filter(Boolean);
}
