#!/usr/bin/env node
import { runProgram } from './program.js';

process.exitCode = await runProgram(process.argv, (text) => process.stderr.write(text));
