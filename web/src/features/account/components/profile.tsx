import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import { loadingText, profileUpdatedText } from '@cloudtrim/contracts/messages';
import { describeLoadError } from '../../../lib/load-failure';
import { PageHeading } from '../../../components/page-heading';
import { useAccountDetails } from '../api/get-account-details';
import { ChangePasswordForm } from './change-password-form';
import { EditProfileForm } from './edit-profile-form';
import { MailPreferences } from './mail-preferences';
import { ProfileDetailsTable } from './profile-details-table';

interface ProfileProps {
  /** Ends the session on this device once the password changed (SPEC §7: then /login?pucomplete). */
  onPasswordChanged: () => Promise<void>;
}

/** The change-password form opens by itself for /profile?changePassword=true, also when already here. */
function useChangePasswordOpen() {
  const [searchParams] = useSearchParams();
  const { key } = useLocation();
  const isRequested = searchParams.get('changePassword') === 'true';
  const [isOpen, setIsOpen] = useState(isRequested);
  useEffect(() => {
    if (isRequested) setIsOpen(true);
  }, [isRequested, key]);
  return [isOpen, setIsOpen] as const;
}

export function Profile({ onPasswordChanged }: ProfileProps) {
  const account = useAccountDetails();
  const [isEditing, setIsEditing] = useState(false);
  const [isSaved, setIsSaved] = useState(false);
  const [isChangingPassword, setIsChangingPassword] = useChangePasswordOpen();

  function onEdit() {
    setIsSaved(false);
    setIsEditing(true);
  }

  function onSaved() {
    setIsEditing(false);
    setIsSaved(true);
  }

  return (
    <>
      <PageHeading title="Profile" />
      {isSaved ? (
        <Alert variant="success" dismissible onClose={() => setIsSaved(false)}>
          {profileUpdatedText}
        </Alert>
      ) : null}

      <div className="row g-4">
        <div className="col-xl-6">
          <Card className="mb-4">
            <Card.Header as="h2" className="h6 mb-0 py-3">
              Account Details
            </Card.Header>
            <Card.Body>
              {account.isPending ? (
                <div className="d-flex align-items-center gap-2 text-body-secondary" role="status">
                  <Spinner animation="border" size="sm" aria-hidden="true" />
                  {loadingText}
                </div>
              ) : account.isError ? (
                <Alert variant="danger" className="mb-0">
                  {describeLoadError(account.error)}
                </Alert>
              ) : (
                <>
                  <ProfileDetailsTable details={account.data} />
                  {isEditing ? null : (
                    <Button variant="outline-primary" className="mt-3" onClick={onEdit}>
                      Edit Profile
                    </Button>
                  )}
                </>
              )}
            </Card.Body>
          </Card>
        </div>

        <div className="col-xl-6">
          {isEditing && account.data ? (
            <Card className="mb-4">
              <Card.Header as="h2" className="h6 mb-0 py-3">
                Edit Profile
              </Card.Header>
              <Card.Body>
                <EditProfileForm
                  details={account.data}
                  onSaved={onSaved}
                  onCancel={() => setIsEditing(false)}
                />
              </Card.Body>
            </Card>
          ) : null}

          <Card className="mb-4">
            <Card.Header as="h2" className="h6 mb-0 py-3">
              Change Password
            </Card.Header>
            <Card.Body>
              {isChangingPassword ? (
                <ChangePasswordForm
                  onChanged={onPasswordChanged}
                  onCancel={() => setIsChangingPassword(false)}
                />
              ) : (
                <>
                  <p className="text-body-secondary">
                    Choose a new password; you will be asked to log in again with it.
                  </p>
                  <Button variant="outline-primary" onClick={() => setIsChangingPassword(true)}>
                    Change Password
                  </Button>
                </>
              )}
            </Card.Body>
          </Card>

          <Card className="mb-4">
            <Card.Header as="h2" className="h6 mb-0 py-3">
              Alert Mails
            </Card.Header>
            <Card.Body>
              <MailPreferences />
            </Card.Body>
          </Card>
        </div>
      </div>
    </>
  );
}
