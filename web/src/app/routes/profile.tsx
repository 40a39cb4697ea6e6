import { Profile } from '../../features/account/components/profile';
import { createLoginHref } from '../../config/paths';
import { useLogOut } from '../shell/use-log-out';

/**
 * After a password change this device logs in again with the new password (SPEC §7): its session is
 * ended on the server too, then cleared here. 'Log out of all devices' has already ended the others.
 */
export function ProfileRoute() {
  const { logOutTo } = useLogOut();
  return <Profile onPasswordChanged={() => logOutTo(createLoginHref('pucomplete'))} />;
}
