// `npm run tasks -- <verify FILE.jsonl | stats | evolve FILE.jsonl|--preset P --rounds R>`: dispatcher for the
// curriculum and sandbox task commands.
import { runMain } from './args';

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
    default:
      console.error('usage: npm run tasks -- verify FILE.jsonl | stats | evolve FILE.jsonl|--preset P --rounds R');
      return 2;
  }
}

runMain(main, { stack: false });
