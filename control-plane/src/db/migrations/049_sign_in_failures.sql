-- Failed console sign-ins per email (by hash: unknown emails are counted too, so a lock says nothing about
-- which emails have accounts): consecutive failures and, once too many, until when the email is locked.
CREATE TABLE sign_in_failures (
  email_hash text PRIMARY KEY,
  failures integer NOT NULL,
  last_failure_at timestamptz NOT NULL,
  locked_until timestamptz
);
