import { Command, CommanderError, Option } from "commander";
import { EXIT_USAGE } from "./io.js";
import { reportFailure } from "./shell.js";
import { packageVersion } from "./package-version.js";
import { VALIDATOR_COMMANDS } from "./validator-commands.js";

/** Prints the version and ends the parse as commander's own version option does. */
function printVersion(): never {
  const version = packageVersion();
  process.stdout.write(`${version}\n`);
  throw new CommanderError(0, "commander.version", version);
}

/**
 * `basemodel` with the command that `args` (the arguments after the script) run. Declaring a
 * command parses each of its options' flags, about a millisecond for every command's, so a known
 * command named first is declared alone; the root's help, `help`, an unknown command (with its
 * did-you-mean) and options before the command get every command, in the order the help lists
 * them. The server's commands are imported only then.
 */
async function program(args: readonly string[]): Promise<Command> {
  const cli = new Command("basemodel")
    .description("Validate fAIr base model items (STAC + MLM + fair:)")
    .option("-v, --version", "print the version")
    .exitOverride()
    .on("option:version", printVersion);
  // -V as well, the flag before -v: commander takes one short flag per option.
  cli.addOption(new Option("-V").hideHelp()).on("option:V", printVersion);

  const named = args[0] ?? "";
  const validatorCommand = VALIDATOR_COMMANDS.get(named);
  if (validatorCommand !== undefined) validatorCommand(cli);
  else {
    const { SERVER_COMMANDS } = await import("./server-commands.js");
    const serverCommand = SERVER_COMMANDS.get(named);
    if (serverCommand !== undefined) serverCommand(cli);
    else for (const declare of [...VALIDATOR_COMMANDS.values(), ...SERVER_COMMANDS.values()]) declare(cli);
  }

  // A usage mistake gets its message and where to read more, not the whole help.
  for (const command of [cli, ...cli.commands]) {
    const name = command === cli ? "basemodel" : `basemodel ${command.name()}`;
    command.showHelpAfterError(`Run ${name} --help for usage.`);
  }
  return cli;
}

/**
 * Runs the CLI; sets process.exitCode rather than exiting, so piped output is never cut short.
 * What a command throws is said by the shell every command shares (shell.ts).
 */
export async function main(argv: string[]): Promise<void> {
  stopQuietlyWhenTheReaderLeaves();
  let running = "basemodel";
  try {
    const cli = await program(argv.slice(2));
    await cli
      .hook("preAction", (_program, action) => {
        running = action.name();
      })
      .parseAsync(argv);
  } catch (error) {
    // Commander printed its message already; help and --version end with 0, usage mistakes with 2.
    if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : EXIT_USAGE;
    else process.exitCode = reportFailure(running, error, process.stderr);
  }
}

/**
 * A reader that stops early (`basemodel validate . | head`) closes the pipe, and Node, which
 * ignores SIGPIPE, turns the next write into an EPIPE error with a stack trace. A Unix tool stops
 * quietly instead, with the exit code it had so far.
 */
function stopQuietlyWhenTheReaderLeaves(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      process.exit(process.exitCode ?? 0);
    });
  }
}
