import { Link } from 'react-router';
import { paths } from '../../config/paths';

export function BackToLoginLink() {
  return (
    <p className="mt-4 mb-0 text-center small">
      <Link to={paths.login}>Back to Log In</Link>
    </p>
  );
}
