import { ApiError } from './api.js';

/**
 * A failed read, with the API's own message. A 404 (an unknown id, or a
 * session of another owner: the API does not tell them apart) is said plainly.
 */
export function ErrorMessage({ what, notFound, error }: { what: string; notFound: string; error: Error }) {
  const missing = error instanceof ApiError && error.status === 404;
  return (
    <p role="alert" className="gv-error">
      {missing ? notFound : `Cannot load ${what}`}: {error.message}
    </p>
  );
}
