import { describe, expect, it } from 'vitest';
import { createFailedRunAlert, type FailedRunAlertInput } from './pipelines.notice';

const subscription = '/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/web-rg';
const vm = (name: string) => `${subscription}/providers/Microsoft.Compute/virtualMachines/${name}`;

const input: FailedRunAlertInput = {
  teamId: 'team',
  runId: 'run-1',
  pipelineName: 'Night\nstop',
  action: { type: 'stop' },
  failures: [{ name: 'web-1', armId: vm('web-1'), annualSaving: 100.004, detail: 'HTTP 400 refused' }],
  startedAt: new Date('2026-11-26T03:00:00Z'),
  link: 'http://cloudtrim.test/automation',
};

describe("a failed run's alert", () => {
  it('names the pipeline, the action and the resource, and what is not saved', () => {
    const alert = createFailedRunAlert(input);
    expect(alert).toMatchObject({
      kind: 'pipeline',
      key: 'pipeline-failed:run-1',
      title: 'Pipeline Night stop failed to stop VM web-1',
      scope: 'web-1: HTTP 400 refused',
      day: '2026-11-26',
      amount: 100,
      mailKind: 'pipeline',
      activity: {
        serviceName: 'Pipeline: Night\nstop',
        text: 'The run of 2026-11-26T03:00:00.000Z failed on 1 resource: web-1 (HTTP 400 refused).',
      },
    });
    if (alert.mailKind !== 'pipeline') throw new Error('a pipeline alert brings its own mail');
    expect(alert.mail.subject).toBe('Pipeline failed: Night stop');
    expect(alert.mail.text).toContain('Not saving $100.00 a year until it is done.');
    expect(alert.mail.link).toBe('http://cloudtrim.test/automation');
  });

  it('counts several resources, naming three, and says "resources" when their kinds differ', () => {
    const names = ['web-1', 'web-2', 'web-3', 'web-4'];
    const several = createFailedRunAlert({
      ...input,
      failures: names.map((name) => ({ name, armId: vm(name), annualSaving: 10, detail: 'refused' })),
    });
    expect(several.title).toBe('Pipeline Night stop failed to stop 4 VMs (web-1, web-2, web-3 and 1 more)');
    expect(several.scope).toBe('web-1: refused; web-2: refused; web-3: refused and 1 more');
    expect(several.amount).toBe(40);

    const orders = {
      name: 'orders',
      armId: `${subscription}/providers/Microsoft.Sql/servers/sql-1/databases/orders`,
      annualSaving: 2,
      detail: 'refused',
    };
    const applying = { ...input, action: { type: 'applyRecommendation' as const } };
    expect(createFailedRunAlert({ ...applying, failures: [orders] }).title).toBe(
      'Pipeline Night stop failed to apply the recommendation of database orders',
    );
    const mixed = createFailedRunAlert({
      ...applying,
      failures: [{ name: 'web-1', armId: vm('web-1'), annualSaving: 1, detail: 'refused' }, orders],
    });
    expect(mixed.title).toBe(
      'Pipeline Night stop failed to apply the recommendation of 2 resources (web-1 and orders)',
    );
  });
});
