/**
 * The code frame under an issue: the line before, the offending line, and carets under the
 * offending text. The text format prints it in a terminal and the validator page (web/validate/)
 * shows it in the browser: both take these lines, so the two cannot show different frames. Each
 * line is segments with a style (the gutter dim, the marker and carets in the severity's colour),
 * which a terminal paints with colours and a page with elements.
 */
import type { Issue } from "../../diagnostics/issue.js";

/** Widest slice of a source line a code frame shows: a minified one-line file must not flood the terminal. */
const MAX_FRAME_WIDTH = 160;
const ELLIPSIS = "…";

/** "dim": the gutter; "marked": the `>` of the offending line and its carets, in the severity's colour. */
export type FrameStyle = "plain" | "dim" | "marked";

export interface FrameSegment {
  text: string;
  style: FrameStyle;
}

/** One line of a code frame; its segments' texts joined are the line as the text format prints it without colour. */
export type FrameLine = FrameSegment[];

/** Lines of a file's text, indexed once: a huge file is scanned a single time, however many issues it has. */
export class SourceLines {
  private readonly text: string;
  private readonly starts: number[] = [0];

  constructor(source: string) {
    // The validator drops a byte-order mark before it counts columns.
    this.text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
    for (let at = this.text.indexOf("\n"); at !== -1; at = this.text.indexOf("\n", at + 1)) this.starts.push(at + 1);
  }

  /** The 1-based line without its line break, or undefined past the end. */
  line(lineNumber: number): string | undefined {
    const start = this.starts[lineNumber - 1];
    if (start === undefined) return undefined;
    const next = this.starts[lineNumber];
    const line = this.text.slice(start, next === undefined ? this.text.length : next - 1);
    return line.endsWith("\r") ? line.slice(0, -1) : line;
  }
}

/**
 * The columns [start, end) a frame shows, chosen to keep the issue's column in view. The context
 * line is cut to the same columns, so that both lines stay aligned.
 */
interface FrameWindow {
  start: number;
  end: number;
}

function windowAround(lineLength: number, columnIndex: number): FrameWindow {
  const start = lineLength <= MAX_FRAME_WIDTH ? 0 : Math.max(0, Math.min(columnIndex - MAX_FRAME_WIDTH / 2, lineLength - MAX_FRAME_WIDTH));
  return { start, end: start + MAX_FRAME_WIDTH };
}

/**
 * Control characters from a file (in its lines, quoted in a message, in its name) would be
 * executed by a terminal as escape sequences, so they are shown as U+FFFD; one character for
 * one keeps the caret under the right column. Tabs stay.
 */
export function visible(text: string): string {
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g, "\ufffd");
}

function cut(line: string, window: FrameWindow): string {
  const before = window.start > 0 && line.length > 0 ? ELLIPSIS : "";
  const after = window.end < line.length ? ELLIPSIS : "";
  return before + visible(line.slice(window.start, window.end)) + after;
}

/** Spaces up to the column, keeping the line's tabs so that the caret lines up under them. */
function caretIndent(line: string, window: FrameWindow, columnIndex: number): string {
  const before = window.start > 0 ? " " : ""; // under the ellipsis
  return before + line.slice(window.start, columnIndex).replace(/[^\t]/g, " ");
}

function caretLength(issue: Issue, line: string, window: FrameWindow, columnIndex: number): number {
  const endIndex = issue.endLine === issue.line && issue.endColumn !== undefined ? issue.endColumn - 1 : line.length;
  return Math.max(1, Math.min(endIndex, window.end) - columnIndex);
}

const plain = (text: string): FrameSegment => ({ text, style: "plain" });
const dim = (text: string): FrameSegment => ({ text, style: "dim" });
const marked = (text: string): FrameSegment => ({ text, style: "marked" });

/** The offending line with one line of context before it, and carets under the offending text; none without a position. */
export function codeFrame(source: SourceLines, issue: Issue): FrameLine[] {
  if (issue.line === undefined) return [];
  const line = source.line(issue.line);
  if (line === undefined) return [];
  const columnIndex = (issue.column ?? 1) - 1;
  const window = windowAround(line.length, columnIndex);
  const gutterWidth = String(issue.line).length;
  const gutter = (marker: FrameSegment, lineNumber: number | undefined): FrameLine => [
    plain("    "),
    marker,
    plain(" "),
    dim(`${lineNumber ?? ""}`.padStart(gutterWidth)),
    plain(" "),
    dim("|"),
  ];
  const previous = issue.line > 1 ? source.line(issue.line - 1) : undefined;
  return [
    ...(previous === undefined ? [] : [[...gutter(plain(" "), issue.line - 1), plain(` ${cut(previous, window)}`)]]),
    [...gutter(marked(">"), issue.line), plain(` ${cut(line, window)}`)],
    [...gutter(plain(" "), undefined), plain(` ${caretIndent(line, window, columnIndex)}`), marked("^".repeat(caretLength(issue, line, window, columnIndex)))],
  ];
}
