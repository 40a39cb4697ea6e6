import { randomUUID } from 'node:crypto';

export type OperationStatus = 'InProgress' | 'Succeeded' | 'Failed';

export interface OperationError {
  readonly code: string;
  readonly message: string;
}

export interface AsyncOperation {
  readonly id: string;
  readonly subscriptionId: string;
  readonly location: string;
  readonly startedAtMs: number;
  readonly completesAtMs: number;
  /** Set on an operation that ends Failed (a start Azure could not allocate). */
  readonly error?: OperationError;
}

const keepFinishedOperationsMs = 60 * 60 * 1000;

/**
 * Long-running operations (resize, start, deallocate, power off). Progress follows the wall
 * clock, not the emulated clock: the SDK's poller waits in real time.
 */
export class OperationStore {
  private readonly operations = new Map<string, AsyncOperation>();

  constructor(private readonly durationMs: number) {}

  create(subscriptionId: string, location: string, error?: OperationError): AsyncOperation {
    this.dropOldOperations();
    const startedAtMs = Date.now();
    const operation: AsyncOperation = {
      id: randomUUID(),
      subscriptionId,
      location,
      startedAtMs,
      completesAtMs: startedAtMs + this.durationMs,
      ...(error ? { error } : {}),
    };
    this.operations.set(operation.id, operation);
    return operation;
  }

  find(subscriptionId: string, operationId: string): AsyncOperation | undefined {
    const operation = this.operations.get(operationId.toLowerCase());
    return operation?.subscriptionId === subscriptionId.toLowerCase() ? operation : undefined;
  }

  readStatus(operation: AsyncOperation): OperationStatus {
    if (Date.now() < operation.completesAtMs) return 'InProgress';
    return operation.error ? 'Failed' : 'Succeeded';
  }

  /** Whole seconds to wait before asking again, as the Retry-After header carries them. */
  readRetryAfterSeconds(operation: AsyncOperation): number {
    return Math.max(1, Math.ceil((operation.completesAtMs - Date.now()) / 1000));
  }

  private dropOldOperations(): void {
    const cutoff = Date.now() - keepFinishedOperationsMs;
    for (const [id, operation] of this.operations) {
      if (operation.completesAtMs < cutoff) this.operations.delete(id);
    }
  }
}
