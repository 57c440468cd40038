/** The run's error for a refusal: the model's own words, so every face shows them. */
export function refusalText(text: string): string {
  const said = text.trim();
  return said ? `the model refused: ${said.length > 300 ? `${said.slice(0, 300)}…` : said}` : 'the model refused to answer (refusal)';
}
