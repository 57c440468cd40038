import chalk from 'chalk';
import type { Theme } from 'cli-highlight';

/**
 * Syntax colours built on the project's chalk, so they follow the same colour level as Ink's own
 * output (cli-highlight's bundled chalk would detect the level on its own).
 */
export function codeTheme(): Theme {
  return {
    keyword: chalk.magenta,
    built_in: chalk.cyan,
    type: chalk.cyan,
    literal: chalk.blue,
    number: chalk.yellow,
    regexp: chalk.red,
    string: chalk.green,
    subst: chalk.reset,
    symbol: chalk.yellow,
    class: chalk.cyan,
    function: chalk.blue,
    title: chalk.blue,
    params: chalk.reset,
    comment: chalk.gray,
    doctag: chalk.gray,
    meta: chalk.gray,
    section: chalk.bold,
    tag: chalk.magenta,
    name: chalk.magenta,
    attr: chalk.yellow,
    attribute: chalk.yellow,
    variable: chalk.red,
    bullet: chalk.yellow,
    link: chalk.underline,
    quote: chalk.gray,
    addition: chalk.green,
    deletion: chalk.red,
    emphasis: chalk.italic,
    strong: chalk.bold,
  };
}
