import { Link, Outlet, useLocation } from 'react-router';
import { Brand } from '../../components/brand';
import { paths } from '../../config/paths';

/** The public sign-in area of SPEC §2: one centred card, wider on /verify for the account form. */
export function SignInLayout() {
  const { pathname } = useLocation();
  const isWide = pathname.toLowerCase() === paths.verify.toLowerCase();

  return (
    <main className="centered-page">
      <div className={isWide ? 'centered-column centered-column-wide' : 'centered-column'}>
        <Link to={paths.start} className="centered-brand" aria-label="Cloudtrim home">
          <Brand />
        </Link>
        <Outlet />
        <p className="centered-footer">© Cloudtrim · Azure cost optimization</p>
      </div>
    </main>
  );
}
