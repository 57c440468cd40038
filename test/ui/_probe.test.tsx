import React from 'react';
import chalk from 'chalk';
import { render } from 'ink-testing-library';
import { test } from 'vitest';
import { Markdown } from '../../src/ui/components/Markdown.js';
test('probe', async () => {
  chalk.level = 1;
  const md = '# Hi *there*\n\nA & B < C \\* **bold** `code` [link](http://x.y) ~~del~~\nsecond line\n\n- [ ] task\n- item\n  1. nested\n  2. two\n\n> quote\n> more\n\n| a | b |\n|---|:-:|\n| 1 | **2** |\n| long cell here | x |\n\n```js\nconst x = 1;\nfunction f() { return "s"; }\n```\n\n---\n\n```\nplain\n```';
  const r = render(<Markdown text={md} width={60} />);
  console.log(r.lastFrame());
  console.log(JSON.stringify(r.lastFrame()!.split('\n').slice(-8)));
});
