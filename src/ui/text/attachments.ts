/** File names a message attaches as images or PDFs (`@shot.png`, a pasted `/tmp/Screen Shot.png`), for chips. */
export function attachmentNames(text: string): string[] {
  const names: string[] = [];
  const add = (path: string) => {
    const name = path.replace(/\\ /g, ' ').split('/').pop() ?? path;
    if (/\.(png|jpe?g|webp|gif|pdf)$/i.test(name) && !names.includes(name)) names.push(name);
  };
  for (const m of text.matchAll(/(?:^|\s)@([^\s@]+)/g)) add(m[1]!.replace(/[.,;:!?)]+$/, ''));
  for (const m of text.matchAll(/'(\/[^']+)'|"(\/[^"]+)"|(?:^|\s)((?:\/(?:\\ |[^\s])+)+)/g)) add(m[1] ?? m[2] ?? m[3]!);
  return names;
}
