import { Link, type LinkProps } from 'react-router';

interface LinkButtonProps extends LinkProps {
  variant?: 'primary' | 'outline-primary' | 'secondary' | 'outline-secondary';
  size?: 'sm' | 'lg';
}

/** A router link that looks like a Bootstrap button: it navigates, so it stays a link for assistive technology. */
export function LinkButton({ variant = 'primary', size, className, ...linkProps }: LinkButtonProps) {
  const classNames = ['btn', `btn-${variant}`, size ? `btn-${size}` : '', className ?? ''];
  return <Link className={classNames.filter(Boolean).join(' ')} {...linkProps} />;
}
