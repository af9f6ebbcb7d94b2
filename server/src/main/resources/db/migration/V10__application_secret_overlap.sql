-- Secret rotation with overlap (accounts.ApplicationService#rotateSecret): after a rotation the
-- previous secret may stay valid until previous_secret_expires_at, so a client can roll its
-- deployments over to the new one. Stored like the current secret: hex SHA-256 only.
alter table applications add column previous_secret_hash varchar(64);
alter table applications add column previous_secret_expires_at timestamp with time zone;
