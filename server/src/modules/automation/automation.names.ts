// The Recent Activity service name of everything automation does, apart from the service so the
// executor and the guard can name it without importing the service.
export const automationServiceName = 'Automation';

// How long a job sent for a claimed change has to start its run before the dispatcher sends the
// change again.
export const startGraceMs = 5 * 60 * 1000;
