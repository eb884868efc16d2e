// `npm run tasks -- <verify FILE.jsonl | stats | evolve FILE.jsonl|--preset P --rounds R>`: dispatcher for the
// curriculum and sandbox task commands.
import { runMain } from './args';
import { helpText } from './cli-spec';
import { TASKS_SPEC } from './help/tasks-specs';

const [sub, ...rest] = process.argv.slice(2);

async function main(): Promise<number> {
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
    case '--help':
      console.log(helpText(TASKS_SPEC));
      return 0;
    default:
      throw new Error(
        `${sub === undefined ? 'no sub-command' : `unknown sub-command '${sub}'`}: expected ${TASKS_SPEC.subcommands!.join(', ')} (npm run tasks -- --help)`,
      );
  }
}

runMain(main, { stack: false });
