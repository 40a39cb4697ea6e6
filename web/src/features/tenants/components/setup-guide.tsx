import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Collapse from 'react-bootstrap/Collapse';
import { setupGuideHeading } from '@cloudtrim/contracts/messages';
// The script itself, kept beside the guide (inside the web workspace), so the guide and the
// download never drift apart.
import servicePrincipalScript from '../assets/create-service-principal.sh?raw';

const scriptFileName = 'create-service-principal.sh';
const scriptHref = `data:text/x-shellscript;charset=utf-8,${encodeURIComponent(servicePrincipalScript)}`;

const documentationLinks = [
  { label: 'Install the Azure CLI', href: 'https://learn.microsoft.com/cli/azure/install-azure-cli' },
  {
    label: 'Create an Azure service principal with the Azure CLI',
    href: 'https://learn.microsoft.com/cli/azure/azure-cli-sp-tutorial-1',
  },
  {
    label: 'Assign Azure roles using the Azure CLI',
    href: 'https://learn.microsoft.com/azure/role-based-access-control/role-assignments-cli',
  },
  {
    label: 'Azure built-in roles',
    href: 'https://learn.microsoft.com/azure/role-based-access-control/built-in-roles',
  },
];

function CommandBlock({ children }: { children: string }) {
  return (
    <pre className="setup-guide-command">
      <code>{children}</code>
    </pre>
  );
}

/** How to create the service principal the Add Tenant form asks for, with the roles Cloudtrim needs. */
export function SetupGuide() {
  const [isOpen, setIsOpen] = useState(false);
  const contentId = useId();

  return (
    <section className="setup-guide">
      <Button
        variant="link"
        className="setup-guide-toggle"
        aria-expanded={isOpen}
        aria-controls={contentId}
        onClick={() => setIsOpen((open) => !open)}
      >
        {isOpen ? '▾' : '▸'} {setupGuideHeading}
      </Button>
      <Collapse in={isOpen}>
        <div id={contentId}>
          <div className="setup-guide-body">
            <p>
              Cloudtrim connects to a tenant with a service principal. It needs, on each subscription to
              manage:
              <strong> Reader</strong> to list resources, <strong>Monitoring Reader</strong> to read metrics
              and <strong>Virtual Machine Contributor</strong> to resize, start and stop virtual machines.
            </p>
            <ol className="setup-guide-steps">
              <li>
                Sign in with the Azure CLI as someone who may create app registrations and assign roles:
                <CommandBlock>az login</CommandBlock>
              </li>
              <li>
                Create the service principal with Reader on the subscription (repeat <code>--scopes</code>{' '}
                values for more subscriptions):
                <CommandBlock>
                  {
                    'az ad sp create-for-rbac --name cloudtrim --role Reader --scopes /subscriptions/<subscription-id>'
                  }
                </CommandBlock>
                It prints <code>tenant</code>, <code>appId</code> and <code>password</code>: the form&apos;s
                Tenant ID, Application ID and Secret.
              </li>
              <li>
                Grant the two other roles on each subscription, with the <code>appId</code> from step 2:
                <CommandBlock>
                  {[
                    'az role assignment create --assignee <appId> --role "Virtual Machine Contributor" --scope /subscriptions/<subscription-id>',
                    'az role assignment create --assignee <appId> --role "Monitoring Reader" --scope /subscriptions/<subscription-id>',
                  ].join('\n')}
                </CommandBlock>
              </li>
              <li>Enter the three values in the form, give the tenant a name, and add it.</li>
            </ol>
            <p>
              Or let the script do steps 2 and 3 for every subscription at once and print the values to paste:{' '}
              <a href={scriptHref} download={scriptFileName}>
                download {scriptFileName}
              </a>{' '}
              (also in the Cloudtrim repository as{' '}
              <code>web/src/features/tenants/assets/{scriptFileName}</code>), then run
            </p>
            <CommandBlock>{`bash ${scriptFileName} <subscription-id> [<subscription-id> ...]`}</CommandBlock>
            <p className="mb-1">Microsoft documentation:</p>
            <ul className="mb-0">
              {documentationLinks.map((link) => (
                <li key={link.href}>
                  <a href={link.href} target="_blank" rel="noreferrer">
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </Collapse>
    </section>
  );
}
