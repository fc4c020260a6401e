#!/usr/bin/env node
import { runProgram } from './program.js';

// A reader that stops early (`homecare-sync checkpoint list | head`) closes the pipe: stop
// quietly, as Unix tools do, instead of crashing on the EPIPE of the next write.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await runProgram(process.argv, (text) => process.stderr.write(text));
