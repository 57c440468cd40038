import chalk from 'chalk';
import { cleanup, render } from 'ink-testing-library';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Breadcrumb } from '../../src/ui/components/Breadcrumb.js';
import { TransferLine } from '../../src/ui/components/TransferLine.js';
import { AGENT_PALETTE, agentColor } from '../../src/ui/theme/agent-color.js';
import { plain } from './helpers.js';

let level: typeof chalk.level;
beforeAll(() => {
  level = chalk.level;
  chalk.level = 1;
});
afterAll(() => {
  chalk.level = level;
});
afterEach(() => cleanup());

/** The ANSI foreground code chalk uses for a palette colour name. */
const fg = (name: string) => (chalk as unknown as Record<string, (s: string) => string>)[name]('x').split('x')[0];

describe('agent colours', () => {
  it('are stable per name and come from the palette', () => {
    for (const name of ['lead', 'researcher', 'writer', 'a', 'b']) {
      expect(agentColor(name)).toBe(agentColor(name));
      expect(AGENT_PALETTE).toContain(agentColor(name));
    }
  });

  it('spread over the palette', () => {
    const names = Array.from({ length: 40 }, (_, i) => `agent-${i}`);
    expect(new Set(names.map(agentColor)).size).toBeGreaterThan(5);
  });
});

describe('Breadcrumb', () => {
  it('joins the run path with ▸', () => {
    const r = render(<Breadcrumb path={['team', 'lead', 'researcher']} />);
    expect(plain(r.lastFrame())).toBe('team ▸ lead ▸ researcher');
  });

  it('highlights the current agent: bold, in its colour; the others dim', () => {
    const frame = render(<Breadcrumb path={['team', 'lead', 'researcher']} />).lastFrame()!;
    const last = frame.slice(frame.lastIndexOf('▸'));
    expect(last).toContain(fg(agentColor('researcher')));
    expect(last).toContain('\u001B[1m');
    const first = frame.slice(0, frame.indexOf('▸'));
    expect(first).toContain('\u001B[2m');
    expect(first).not.toContain('\u001B[1m');
  });

  it('gives way at the start when too wide', () => {
    const r = render(<Breadcrumb path={['organisation', 'department', 'team', 'lead', 'researcher']} width={30} />);
    const text = plain(r.lastFrame());
    expect(text).toBe('… ▸ team ▸ lead ▸ researcher');
  });

  it('renders nothing for an empty path', () => {
    expect(render(<Breadcrumb path={[]} />).lastFrame()).toBe('');
  });
});

describe('TransferLine', () => {
  it('shows ↳ from → to, each in its own colour', () => {
    const frame = render(<TransferLine from="lead" to="researcher" />).lastFrame()!;
    expect(plain(frame)).toBe('↳ lead → researcher');
    expect(frame).toContain(fg(agentColor('lead')));
    expect(frame).toContain(fg(agentColor('researcher')));
  });
});
