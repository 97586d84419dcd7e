-- An agent's credential can be revoked: its requests are refused from then on (it keeps its row, marked).
ALTER TABLE nodes ADD COLUMN credential_revoked_at timestamptz;
