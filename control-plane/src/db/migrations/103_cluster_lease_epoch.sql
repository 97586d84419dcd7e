-- Write fencing for the reconciler's cluster lease: each time a control plane takes a cluster's lease the epoch grows,
-- and every write made on behalf of the lease first checks (and locks) that the row still names its owner and epoch.
-- A holder paused past its lease (SIGSTOP, a long GC) whose lease was taken over writes nothing when it resumes.
ALTER TABLE clusters ADD COLUMN lease_epoch bigint NOT NULL DEFAULT 0;
