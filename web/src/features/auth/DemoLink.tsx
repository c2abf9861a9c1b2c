import { Link } from 'react-router';
import { demoPath, useDemoTracker } from '../../api/queries/demo';

/** "Explore the demo tracker" when the instance has one; nothing otherwise (or while asking). */
export function DemoLink({ className = '' }: { className?: string }) {
  const demo = useDemoTracker();
  if (!demo.data) return null;
  return (
    <Link
      to={demoPath(demo.data)}
      title={demo.data.title}
      className={`inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-brand-700 hover:text-brand-600 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 ${className}`}
    >
      Explore the demo tracker
      <span aria-hidden="true">→</span>
    </Link>
  );
}
