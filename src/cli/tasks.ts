// `npm run tasks -- <verify FILE.jsonl | stats | evolve FILE.jsonl|--preset P --rounds R>`: dispatcher for the
// curriculum and sandbox task commands.
import { parseArgs, runMain, UsageError } from './args';
import { didYouMean } from '../rl/nearest';

const USAGE =
  'usage: npm run tasks -- verify FILE.jsonl | stats | evolve FILE.jsonl|--preset P --rounds R (each takes --help)';
const COMMANDS = ['verify', 'stats', 'evolve'];

async function main(): Promise<number> {
  const [sub, ...rest] = process.argv.slice(2);
  // `tasks --help`, or a misspelled flag where the command should be.
  if (sub?.startsWith('--')) parseArgs([sub], {});
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
        sub === undefined
          ? USAGE
          : `unknown command '${sub}'${didYouMean(sub, COMMANDS)}; expected one of ${COMMANDS.join(', ')}`,
      );
  }
}

runMain(main, { stack: false, usage: USAGE });
