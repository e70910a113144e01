/**
 * The styles the text format paints with: ANSI colours (chalk), or none. Chalk finds out, as it
 * loads, what the terminal supports (which loads Node's tty and net modules), about 2 ms of a
 * run's start that the run does not use when it prints without colour; so it is loaded only for
 * a run that colours.
 */
export type Style = (text: string) => string;

export interface Paint {
  red: Style;
  yellow: Style;
  green: Style;
  dim: Style;
  bold: Style;
  /** Bold and underlined: a file's name above its issues. */
  heading: Style;
}

const unchanged: Style = (text) => text;

export const NO_COLOURS: Paint = { red: unchanged, yellow: unchanged, green: unchanged, dim: unchanged, bold: unchanged, heading: unchanged };

/** ANSI colours, the 16 every terminal shows: a private instance, whatever the terminal claims. */
export async function loadColours(): Promise<Paint> {
  const { Chalk } = await import("chalk");
  const chalk = new Chalk({ level: 1 });
  return { red: chalk.red, yellow: chalk.yellow, green: chalk.green, dim: chalk.dim, bold: chalk.bold, heading: chalk.bold.underline };
}
