// `npm run tasks -- <verify FILE.jsonl | stats | evolve FILE.jsonl|--preset P --rounds R>`: dispatcher for the
// curriculum and sandbox task commands.
import { runMain, UsageError } from './args';
import { didYouMean } from '../rl/nearest';
import { helpText } from './cli-spec';
import { TASKS_SPEC } from './help/tasks-specs';

const COMMANDS = TASKS_SPEC.subcommands!;

async function main(): Promise<number> {
  const [sub, ...rest] = process.argv.slice(2).filter((a) => a !== '--');
  if (sub === undefined || sub === '--help') {
    console.log(helpText(TASKS_SPEC));
    return sub === undefined ? 2 : 0;
  }
  // A misspelled flag where the command should be.
  if (sub.startsWith('--'))
    throw new UsageError(`unknown option ${sub}: expected a sub-command, one of ${COMMANDS.join(', ')}`);
  switch (sub) {
    case 'verify': {
      const { verifyCommand } = await import('./tasks-verify');
      return verifyCommand(rest);
    }
    case 'stats': {
      const { statsCommand } = await import('./tasks-stats');
      return statsCommand(rest);
    }
    case 'evolve': {
      const { evolveCommand } = await import('./tasks-evolve');
      return evolveCommand(rest);
    }
    default:
      throw new UsageError(
        `unknown command '${sub}'${didYouMean(sub, COMMANDS)}; expected one of ${COMMANDS.join(', ')}`,
      );
  }
}

runMain(main, { stack: false });
