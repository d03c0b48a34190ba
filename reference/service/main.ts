// Entry point: read the environment, build the service, listen. Exit 2 on bad configuration.
import { buildService } from './app';
import { ConfigError, readConfig } from './config';
import type { OutsidePlugin } from './seams';

/**
 * A module named in REFERENCE_PLUGINS: its default export (or the module itself) is the plugin. Loaded
 * with require, so that it may be TypeScript under tsx, or the bundle embedded.mjs made of it.
 */
function loadPlugin(file: string): OutsidePlugin {
  const mod = require(file) as { default?: OutsidePlugin } | OutsidePlugin; // eslint-disable-line @typescript-eslint/no-require-imports
  const plugin = typeof mod === 'function' ? mod : mod.default;
  if (typeof plugin !== 'function') throw new ConfigError(`REFERENCE_PLUGINS: ${file} exports no plugin (a function as its default export)`);
  // A plugin that refuses its own settings as it registers is bad configuration too: one line, exit 2.
  return async (app, seams) => {
    try {
      await plugin(app, seams);
    } catch (e) {
      throw new ConfigError(`REFERENCE_PLUGINS: ${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
}

/** Bad configuration (the environment, a plugin's own settings): one line and exit 2. */
function refuse(e: unknown): never {
  if (!(e instanceof ConfigError)) throw e;
  process.stderr.write(`reference service: ${e.message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let config;
  try {
    config = readConfig();
  } catch (e) {
    refuse(e);
  }
  const app = await buildService({ ...config, plugins: config.pluginFiles.map(loadPlugin) }).catch(refuse);
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
}

main().catch((err) => {
  process.stderr.write(`reference service: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
