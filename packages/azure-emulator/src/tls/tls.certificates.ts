import { createPrivateKey, generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import forge from 'node-forge';
import { dayMs } from '../time';

export interface CertificateAuthority {
  readonly certificatePem: string;
  readonly privateKeyPem: string;
  readonly certificatePath: string;
}

export interface ServerCertificate {
  readonly certificatePem: string;
  readonly privateKeyPem: string;
}

// getTBSCertificate exists in node-forge but is missing from its type definitions.
const forgePki = forge.pki as typeof forge.pki & {
  getTBSCertificate(certificate: forge.pki.Certificate): forge.asn1.Asn1;
};

const authorityFolderName = 'certificate-authority';
const authorityCertificateFile = 'ca.cert.pem';
const authorityKeyFile = 'ca.key.pem';
const serverCertificateFile = 'server.cert.pem';
const serverKeyFile = 'server.key.pem';
const serverRenewalMarginMs = 30 * dayMs;

function generateKeyPair(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyPem: publicKey };
}

function createSerialNumber(): string {
  // A positive serial: the top bit of the first byte must stay clear.
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString('hex');
}

// forge builds the certificate; Node's native RSA signs it, which is ~100 times faster than
// forge's JavaScript RSA.
function signCertificate(certificate: forge.pki.Certificate, signerKeyPem: string): string {
  certificate.signatureOid = forge.pki.oids.sha256WithRSAEncryption ?? '1.2.840.113549.1.1.11';
  certificate.siginfo.algorithmOid = certificate.signatureOid;
  certificate.tbsCertificate = forgePki.getTBSCertificate(certificate);
  const toBeSigned = Buffer.from(forge.asn1.toDer(certificate.tbsCertificate).getBytes(), 'binary');
  certificate.signature = sign('sha256', toBeSigned, createPrivateKey(signerKeyPem)).toString('binary');
  return forge.pki.certificateToPem(certificate);
}

function createAuthorityCertificate(): ServerCertificate {
  const keys = generateKeyPair();
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(keys.publicKeyPem);
  certificate.serialNumber = createSerialNumber();
  certificate.validity.notBefore = new Date(Date.now() - dayMs);
  certificate.validity.notAfter = new Date(Date.now() + 10 * 365 * dayMs);
  const subject = [
    { name: 'commonName', value: 'Cloudtrim Azure Emulator Root CA' },
    { name: 'organizationName', value: 'Cloudtrim' },
  ];
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  return {
    certificatePem: signCertificate(certificate, keys.privateKeyPem),
    privateKeyPem: keys.privateKeyPem,
  };
}

/** A leaf certificate for 127.0.0.1, ::1 and localhost, signed by the authority. */
export function createServerCertificate(authority: ServerCertificate): ServerCertificate {
  const authorityCertificate = forge.pki.certificateFromPem(authority.certificatePem);
  const keys = generateKeyPair();
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(keys.publicKeyPem);
  certificate.serialNumber = createSerialNumber();
  certificate.validity.notBefore = new Date(Date.now() - dayMs);
  certificate.validity.notAfter = new Date(Date.now() + 365 * dayMs);
  certificate.setSubject([{ name: 'commonName', value: 'localhost' }]);
  certificate.setIssuer(authorityCertificate.subject.attributes);
  certificate.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
        { type: 7, ip: '::1' },
      ],
    },
    { name: 'subjectKeyIdentifier' },
    {
      name: 'authorityKeyIdentifier',
      keyIdentifier: authorityCertificate.generateSubjectKeyIdentifier().getBytes(),
    },
  ]);
  return {
    certificatePem: signCertificate(certificate, authority.privateKeyPem),
    privateKeyPem: keys.privateKeyPem,
  };
}

async function readPair(
  folder: string,
  certificateFile: string,
  keyFile: string,
): Promise<ServerCertificate | undefined> {
  try {
    const [certificatePem, privateKeyPem] = await Promise.all([
      readFile(path.join(folder, certificateFile), 'utf8'),
      readFile(path.join(folder, keyFile), 'utf8'),
    ]);
    return { certificatePem, privateKeyPem };
  } catch {
    return undefined;
  }
}

/**
 * Loads the emulator's certificate authority from the data directory, creating it on first use.
 * Keeping it across restarts means clients that trusted it once keep trusting it.
 */
export async function loadOrCreateCertificateAuthority(dataDirectory: string): Promise<CertificateAuthority> {
  const folder = path.join(dataDirectory, authorityFolderName);
  const certificatePath = path.join(folder, authorityCertificateFile);
  const existing = await readPair(folder, authorityCertificateFile, authorityKeyFile);
  if (existing) return { ...existing, certificatePath };
  await mkdir(dataDirectory, { recursive: true });
  const created = createAuthorityCertificate();
  // Written to a private folder then renamed in one step, so two emulators starting together on
  // the same data directory end up sharing one authority.
  const staging = path.join(
    dataDirectory,
    `.${authorityFolderName}-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  await mkdir(staging, { recursive: true });
  await writeFile(path.join(staging, authorityCertificateFile), created.certificatePem);
  await writeFile(path.join(staging, authorityKeyFile), created.privateKeyPem, { mode: 0o600 });
  try {
    await rename(staging, folder);
  } catch {
    await rm(staging, { recursive: true, force: true });
  }
  const stored = await readPair(folder, authorityCertificateFile, authorityKeyFile);
  if (!stored) throw new Error(`Could not store the certificate authority in ${folder}`);
  return { ...stored, certificatePath };
}

function isUsableServerCertificate(candidate: ServerCertificate, authority: CertificateAuthority): boolean {
  try {
    const certificate = new X509Certificate(candidate.certificatePem);
    const issuer = new X509Certificate(authority.certificatePem);
    return (
      certificate.checkIssued(issuer) &&
      certificate.verify(issuer.publicKey) &&
      certificate.checkPrivateKey(createPrivateKey(candidate.privateKeyPem)) &&
      Date.parse(certificate.validTo) - Date.now() > serverRenewalMarginMs
    );
  } catch {
    return false;
  }
}

/** The server certificate kept beside the authority, renewed when missing, foreign or expiring. */
export async function loadOrCreateServerCertificate(
  authority: CertificateAuthority,
): Promise<ServerCertificate> {
  const folder = path.dirname(authority.certificatePath);
  const existing = await readPair(folder, serverCertificateFile, serverKeyFile);
  if (existing && isUsableServerCertificate(existing, authority)) return existing;
  const created = createServerCertificate(authority);
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  // Key first, certificate last: a reader that finds a certificate also finds its key.
  await writeFile(path.join(folder, `${serverKeyFile}.${suffix}`), created.privateKeyPem, { mode: 0o600 });
  await writeFile(path.join(folder, `${serverCertificateFile}.${suffix}`), created.certificatePem);
  await rename(path.join(folder, `${serverKeyFile}.${suffix}`), path.join(folder, serverKeyFile));
  await rename(
    path.join(folder, `${serverCertificateFile}.${suffix}`),
    path.join(folder, serverCertificateFile),
  );
  return created;
}
