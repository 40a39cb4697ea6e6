// Starts Cloudtrim: configuration, database (embedded unless DATABASE_URL), migrations, the job
// queue, then the API and/or the workers by ROLE. SIGTERM, SIGINT and SIGHUP stop it gracefully.
import { buildApp } from './app';
import { describeDemoCloud, startDemoCloud } from './cloud/azure/demo-cloud';
import { ConfigError, loadConfig, resolveSecrets } from './config';
import { createContainer } from './container';
import { applyMigrations, openDatabase, startEmbeddedPostgres, type EmbeddedServer } from './db/database';
import { createJobDefinitions, scheduledJobs } from './jobs/definitions';
import { startJobThread } from './jobs/job-thread';
import { JobQueue } from './queue/queue';
import { ForegroundGauge } from './lib/foreground';
import { createLogger } from './lib/log';
import { lowerProcessPriority } from './lib/priority';
import { demoAccount } from './modules/demo/demo.service';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const log = createLogger(config);
  const stops: Array<() => Promise<unknown>> = [];
  let isStopping = false;
  const stop = async (reason: string, exitCode = 0) => {
    if (isStopping) {
      log.info(`${reason}: already stopping`);
      return;
    }
    isStopping = true;
    log.info(`${reason}: finishing in-flight work, then stopping`);
    for (const stopPart of stops.reverse()) {
      await stopPart().catch((error: unknown) => log.error({ err: error }, 'error while stopping'));
    }
    log.info('stopped');
    process.exit(exitCode);
  };
  // A signal while stopping changes nothing: the stop under way finishes (a terminal's Ctrl-C under
  // `npm start` reaches this process twice: from the terminal, and forwarded). Without a listener
  // left, Node would end the process at the second one, its embedded PostgreSQL still running. A
  // closed terminal (SIGHUP) stops it the same way rather than killing it.
  const onSignal = (signal: NodeJS.Signals) => void stop(`${signal} received`);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, onSignal);

  const secrets = await resolveSecrets(config, log);
  let embedded: EmbeddedServer | undefined;
  if (!config.databaseUrl) {
    embedded = await startEmbeddedPostgres(config.dataDir, log);
    stops.push(() => embedded!.stop());
  }
  const database = await openDatabase(config.databaseUrl ?? embedded!.url, {
    applicationName: `cloudtrim ${config.role}`,
  });
  stops.push(() => database.close());
  await applyMigrations(database);

  const demoCloud = config.isDemo ? await startDemoCloud(config) : undefined;
  if (demoCloud) stops.push(() => demoCloud.stop());

  const queue = new JobQueue(database.url, log, { isSendOnly: config.role !== 'worker' });
  const container = createContainer({ config: demoCloud?.config ?? config, secrets, database, queue, log });
  await queue.start(createJobDefinitions(container));
  stops.push(() => queue.stop());

  const reboundCount = await container.tenants.bindStoredSecrets();
  if (reboundCount > 0) log.info(`${reboundCount} tenant secret(s) sealed again, bound to their tenant`);

  if (config.isDemo) {
    const { teamId } = await container.demo.seedDemoAccount();
    if (demoCloud) await container.tenants.connectDemoTenant(teamId, demoCloud.demoTenant);
  }

  // ROLE=all: the API's requests in flight, which the job thread gives way to.
  const foreground = config.role === 'all' ? new ForegroundGauge() : undefined;
  if (config.role === 'worker') {
    lowerProcessPriority(log);
    await queue.work();
    await queue.schedule(scheduledJobs);
  } else if (foreground) {
    const jobThread = await startJobThread(
      {
        config: container.config,
        secrets,
        databaseUrl: database.url,
        isScheduling: true,
        foreground: foreground.buffer,
      },
      // Without its jobs the product would look alive but do nothing: stop, so a supervisor restarts it.
      (error) => {
        log.error({ err: error }, 'the job thread failed');
        void stop('the job thread failed', 1);
      },
    );
    stops.push(() => jobThread.stop());
  }
  if (config.role !== 'worker') {
    const app = await buildApp(container, { log, foreground });
    await app.listen({ port: config.port, host: config.host });
    // Fastify's close stops accepting connections and waits for in-flight requests.
    stops.push(() => app.close());
  }
  printBanner(config, embedded?.databaseDir);
  if (demoCloud) process.stdout.write(`${describeDemoCloud(demoCloud).join('\n')}\n\n`);
}

function printBanner(config: ReturnType<typeof loadConfig>, databaseDir: string | undefined): void {
  const lines = [
    '',
    `  Cloudtrim is running (role: ${config.role})`,
    config.role === 'worker' ? '  Workers are processing jobs.' : `  Open ${config.publicUrl}`,
    databaseDir
      ? `  Database: embedded PostgreSQL in ${databaseDir}`
      : '  Database: external PostgreSQL (DATABASE_URL)',
    config.smtpUrl ? '  Mail: SMTP_URL' : '  Mail: written to this log (set SMTP_URL to send)',
  ];
  if (config.isDemo) lines.push(`  Demo account: ${demoAccount.email} / ${demoAccount.password}`);
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Cloudtrim failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
