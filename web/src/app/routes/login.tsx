import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { LoginForm } from '../../features/auth/components/login-form';
import { getLoginHeader } from '../../features/auth/utils/get-login-header';
import { readReturnTo } from '../../lib/return-to';
import { SignInCard } from '../sign-in/sign-in-card';
import { paths } from '../../config/paths';

const headerClassNames = {
  success: 'login-header login-header-success',
  warning: 'login-header login-header-warning',
  default: 'login-header',
} as const;

export function LoginRoute() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const header = getLoginHeader(searchParams);

  function onLoggedIn() {
    void navigate(readReturnTo(location.state) ?? paths.home, { replace: true });
  }

  return (
    <SignInCard title="Log In" lead={<p className={headerClassNames[header.tone]}>{header.text}</p>}>
      <LoginForm recoverHref={paths.recover} signUpHref={paths.signUp} onLoggedIn={onLoggedIn} />
    </SignInCard>
  );
}
