// Entry point: read the environment, build the service, listen. Exit 2 on bad configuration.
import { listFaults } from '../faults';
import { buildService } from './app';
import { ConfigError, readConfig } from './config';

async function main(): Promise<void> {
  if (process.argv.includes('--list-faults')) {
    process.stdout.write(`${listFaults()}\n`);
    return;
  }
  let config;
  try {
    config = readConfig();
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`reference service: ${e.message}\n`);
    process.exit(2);
  }
  const app = await buildService(config);
  // Installed before the line is printed: whoever waits for the line may stop us right away.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      void app.close().then(() => process.exit(0));
    });
  }
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  process.stdout.write(`reference service listening on http://${config.host}:${port}\n`);
  if (config.faults.length) process.stderr.write(`reference service: faults injected: ${config.faults.join(',')}\n`);
}

main().catch((err) => {
  process.stderr.write(`reference service: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
