interface BrandProps {
  className?: string;
}

export function Brand({ className }: BrandProps) {
  return (
    <span className={['brand', className].filter(Boolean).join(' ')}>
      <svg className="brand-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" />
        <path d="M10 22h12a4.5 4.5 0 0 0 .6-8.96A6.5 6.5 0 0 0 10.1 13 4.5 4.5 0 0 0 10 22z" />
      </svg>
      <span className="brand-name">Cloudtrim</span>
    </span>
  );
}
