// Runs a command at the lowest CPU priority (its children inherit it): npm test's checks that no clock
// hurries (type check, lint, format check) then take the CPU the self-test and the unit tests leave idle
// instead of slowing them down at their start.
import { spawn } from 'node:child_process';
import { constants, setPriority } from 'node:os';
import process from 'node:process';

setPriority(constants.priority.PRIORITY_LOW);
const child = spawn(process.argv.slice(2).join(' '), { stdio: 'inherit', shell: true });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
