package provider

import (
	"context"
	"net/http"

	"github.com/strata/terraform-provider-strata/internal/client"
)

// BackupSchedule: GET /v1/clusters/{id}/backup-schedule (nil when the cluster has none).
func (a *API) BackupSchedule(ctx context.Context, clusterID string) (*client.BackupSchedule, error) {
	u, err := parseID(clusterID)
	if err != nil {
		return nil, err
	}
	r, err := a.c.GetBackupScheduleWithResponse(ctx, u)
	if err != nil {
		return nil, err
	}
	if r.JSON200 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	return r.JSON200.Schedule, nil
}

// SetBackupSchedule: PUT /v1/clusters/{id}/backup-schedule.
func (a *API) SetBackupSchedule(ctx context.Context, clusterID string, s client.BackupSchedule) error {
	u, err := parseID(clusterID)
	if err != nil {
		return err
	}
	r, err := a.c.SetBackupScheduleWithResponse(ctx, u, s)
	if err != nil {
		return err
	}
	if r.JSON200 == nil {
		return problem(r.StatusCode(), r.Body)
	}
	return nil
}

// DeleteBackupSchedule: DELETE /v1/clusters/{id}/backup-schedule (backups already taken are kept).
func (a *API) DeleteBackupSchedule(ctx context.Context, clusterID string) error {
	u, err := parseID(clusterID)
	if err != nil {
		return err
	}
	r, err := a.c.DeleteBackupScheduleWithResponse(ctx, u)
	if err != nil {
		return err
	}
	if r.StatusCode() != http.StatusNoContent {
		return problem(r.StatusCode(), r.Body)
	}
	return nil
}

// GetBackup: GET /v1/backups/{id}.
func (a *API) GetBackup(ctx context.Context, id string) (*client.Backup, error) {
	u, err := parseID(id)
	if err != nil {
		return nil, err
	}
	r, err := a.c.GetBackupWithResponse(ctx, u)
	if err != nil {
		return nil, err
	}
	if r.JSON200 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	return &r.JSON200.Backup, nil
}
