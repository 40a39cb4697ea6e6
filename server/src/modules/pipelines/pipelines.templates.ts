// The pipelines of issue 19 to start from, each a dry run until the team turns it on; the nightly stop
// comes with its morning start, so what the nights save can be counted.
import { pipelineDefinitionSchema, type PipelineTemplate } from '@cloudtrim/contracts/pipelines';

export const pipelineTemplates: readonly PipelineTemplate[] = [
  {
    id: 'stop-dev-vms',
    title: 'Stop dev VMs outside business hours',
    description:
      'Every weekday at 19:00 London time, deallocate the VMs tagged environment = dev. With "Start dev VMs for business hours" starting them at 07:00, the preview counts what the nights save.',
    definition: pipelineDefinitionSchema.parse({
      name: 'Stop dev VMs outside business hours',
      scope: { tags: [{ key: 'environment', op: 'equals', value: 'dev' }] },
      action: { type: 'stop' },
      schedule: { cron: '0 19 * * 1-5', timeZone: 'Europe/London' },
      gates: { blastRadius: 50 },
    }),
  },
  {
    id: 'start-dev-vms',
    title: 'Start dev VMs for business hours',
    description: 'Every weekday at 07:00 London time, start the VMs tagged environment = dev again.',
    definition: pipelineDefinitionSchema.parse({
      name: 'Start dev VMs for business hours',
      scope: { tags: [{ key: 'environment', op: 'equals', value: 'dev' }] },
      action: { type: 'start' },
      schedule: { cron: '0 7 * * 1-5', timeZone: 'Europe/London' },
      gates: { blastRadius: 50 },
    }),
  },
  {
    id: 'deallocate-stopped-vms',
    title: 'Deallocate stopped VMs',
    description:
      'Each evening, deallocate the VMs stopped but still billed, once seen stopped two days in a row.',
    definition: pipelineDefinitionSchema.parse({
      name: 'Deallocate stopped VMs',
      condition: { finding: { kind: 'stoppedNotDeallocated' } },
      action: { type: 'deallocate' },
      schedule: { cron: '0 20 * * *', timeZone: 'UTC' },
      gates: { inARow: 2, blastRadius: 20 },
    }),
  },
  {
    id: 'delete-unattached-disks',
    title: 'Snapshot and delete disks unattached 30 days',
    description:
      'Every Monday, snapshot then delete the disks unattached for 30 days, five at a time, after a colleague approves.',
    definition: pipelineDefinitionSchema.parse({
      name: 'Snapshot and delete disks unattached 30 days',
      condition: { finding: { kind: 'unattachedDays', days: 30 } },
      action: { type: 'delete' },
      schedule: { cron: '0 6 * * 1', timeZone: 'UTC' },
      gates: { blastRadius: 5, graceMinutes: 1440 },
    }),
  },
  {
    id: 'apply-right-sizing',
    title: 'Apply high-confidence right-sizing in the window',
    description:
      "Resize the VMs whose right-sizing has 80% confidence or more in each one's maintenance window, ten at a time.",
    definition: pipelineDefinitionSchema.parse({
      name: 'Apply high-confidence right-sizing in the window',
      condition: { finding: { kind: 'recommendation', recommendationKind: 'resize', minConfidence: 0.8 } },
      action: { type: 'applyRecommendation' },
      schedule: { maintenanceWindow: true },
      gates: { blastRadius: 10 },
    }),
  },
];
