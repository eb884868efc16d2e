// A terminal progress bar on stderr: redraws in place on a TTY, prints sparse lines otherwise (CI logs).
export class Progress {
  private last = 0;
  private lastLine = '';
  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  update(label: string, done: number, total: number, extra = ''): void {
    const width = 24;
    const frac = total > 0 ? Math.min(1, done / total) : 0;
    const bar = '█'.repeat(Math.round(frac * width)).padEnd(width, '·');
    const line = `${label.padEnd(16)} ${bar} ${done}/${total}${extra ? ' ' + extra : ''}`;
    if (this.stream.isTTY) {
      this.stream.write(`\r\x1b[2K${line}`);
    } else {
      const now = Date.now();
      if (now - this.last > 5000 || (done === total && line !== this.lastLine)) {
        this.stream.write(line + '\n');
        this.last = now;
      }
    }
    this.lastLine = line;
  }

  clear(): void {
    if (this.stream.isTTY) this.stream.write('\r\x1b[2K');
  }
}
