// The server's start-up banner lists, in demo mode, every emulated tenant's service principals
// ("Contoso: tenant <id>" then "cloudtrim-contoso: application <id> secret <secret> (...)"). The global
// setup reads them from the server's output so tests can connect a tenant the way a user would.

export interface EmulatorPrincipal {
  tenantName: string;
  tenantId: string;
  principalName: string;
  applicationId: string;
  secret: string;
  /** Whether it may read at least one subscription. */
  canRead: boolean;
  isConnectedToDemo: boolean;
}

export const emulatorBannerHeading = 'Emulated tenants';

const tenantLine = /^ {4}(\S.*): tenant ([0-9a-f-]{36})\s*$/i;
const principalLine = /^ {6}(\S+): application ([0-9a-f-]{36}) secret (\S+) \(([^)]*)\)(.*)$/i;

export function readEmulatorPrincipals(banner: string): EmulatorPrincipal[] {
  const principals: EmulatorPrincipal[] = [];
  let tenant: { name: string; id: string } | undefined;
  for (const line of banner.split('\n')) {
    const tenantMatch = tenantLine.exec(line);
    if (tenantMatch) {
      tenant = { name: tenantMatch[1]!, id: tenantMatch[2]! };
      continue;
    }
    const principalMatch = principalLine.exec(line);
    if (principalMatch && tenant) {
      principals.push({
        tenantName: tenant.name,
        tenantId: tenant.id,
        principalName: principalMatch[1]!,
        applicationId: principalMatch[2]!,
        secret: principalMatch[3]!,
        canRead: !principalMatch[4]!.includes('no subscription rights'),
        isConnectedToDemo: principalMatch[5]!.includes('connected to the demo account'),
      });
    }
  }
  return principals;
}
