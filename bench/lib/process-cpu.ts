import { readFileSync } from 'node:fs';

/**
 * CPU time (user + system, ms) a process has used so far, from /proc. CPU per request tells what a
 * server costs even on a machine busy with other work, where throughput and latency mostly tell
 * how busy the machine was.
 */
export function processCpuMs(pid: number): number {
  // Fields after the parenthesised command name: utime and stime are the 12th and 13th, in clock ticks (100/s on Linux).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
