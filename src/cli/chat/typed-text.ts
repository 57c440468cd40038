/**
 * The person's message as typed, from the message the model got: `withMentions` and
 * `withResourceMentions` append the mentioned files and MCP resources after a blank line, as
 * `<file path="…">…</file>` / `<resource …>…</resource>` blocks. A resumed transcript shows the
 * typed text (issue 32, item 7), as the live one did; the model's history keeps the files.
 */
export function typedText(content: string): string {
  if (!content.includes('@')) return content;
  const blocks = /^(?:\n\n(?:<file path="[^"\n]*">\n[\s\S]*?\n<\/file>|<resource server="[^"\n]*" uri="[^"\n]*">\n[\s\S]*?\n<\/resource>|<resource server="[^"\n]*" uri="[^"\n]*" error="[^"\n]*" \/>))+$/;
  // The typed text ends at the first blank line after which only such blocks follow (a block's
  // body may itself hold a blank line or a tag, so each candidate is tried from the left).
  for (let at = content.indexOf('\n\n<'); at >= 0; at = content.indexOf('\n\n<', at + 1)) {
    const typed = content.slice(0, at);
    if (typed.includes('@') && blocks.test(content.slice(at))) return typed;
  }
  return content;
}
