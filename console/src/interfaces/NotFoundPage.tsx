import { Link } from '../lib/router';
import { useDocumentTitle } from '../lib/hooks';
import { EmptyState } from '../components/ui/States';

export default function NotFoundPage() {
  useDocumentTitle('Not found');
  return (
    <>
      <EmptyState
        level={1}
        icon="alert"
        title="This page does not exist"
        action={
          <Link to="/clusters" className="btn btn-primary">
            Go to clusters
          </Link>
        }
      >
        The address may be mistyped, or the page has moved.
      </EmptyState>
    </>
  );
}
