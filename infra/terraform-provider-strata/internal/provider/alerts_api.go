package provider

import (
	"context"
	"net/http"

	openapi_types "github.com/oapi-codegen/runtime/types"
	"github.com/strata/terraform-provider-strata/internal/client"
)

// CreateNotificationChannel: POST /v1/notification-channels.
func (a *API) CreateNotificationChannel(ctx context.Context, body client.CreateNotificationChannelRequest) (*client.NotificationChannel, error) {
	r, err := a.c.CreateNotificationChannelWithResponse(ctx, body)
	if err != nil {
		return nil, err
	}
	if r.JSON201 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	return r.JSON201, nil
}

func (a *API) GetNotificationChannel(ctx context.Context, id string) (*client.NotificationChannel, error) {
	u, err := parseID(id)
	if err != nil {
		return nil, err
	}
	r, err := a.c.GetNotificationChannelWithResponse(ctx, u)
	if err != nil {
		return nil, err
	}
	if r.JSON200 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	return r.JSON200, nil
}

func (a *API) DeleteNotificationChannel(ctx context.Context, id string) error {
	u, err := parseID(id)
	if err != nil {
		return err
	}
	r, err := a.c.DeleteNotificationChannelWithResponse(ctx, u)
	if err != nil {
		return err
	}
	if r.StatusCode() != http.StatusNoContent {
		return problem(r.StatusCode(), r.Body)
	}
	return nil
}

// CreateAlertRule: POST /v1/clusters/{id}/alert-rules, or POST /v1/alert-rules when clusterID is empty.
func (a *API) CreateAlertRule(ctx context.Context, clusterID string, body client.CreateAlertRuleRequest) (*client.AlertRule, error) {
	if clusterID == "" {
		r, err := a.c.CreateAlertRuleWithResponse(ctx, body)
		if err != nil {
			return nil, err
		}
		if r.JSON201 == nil {
			return nil, problem(r.StatusCode(), r.Body)
		}
		return r.JSON201, nil
	}
	u, err := parseID(clusterID)
	if err != nil {
		return nil, err
	}
	r, err := a.c.CreateClusterAlertRuleWithResponse(ctx, u, body)
	if err != nil {
		return nil, err
	}
	if r.JSON201 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	return r.JSON201, nil
}

func (a *API) GetAlertRule(ctx context.Context, id string) (*client.AlertRule, error) {
	u, err := parseID(id)
	if err != nil {
		return nil, err
	}
	r, err := a.c.GetAlertRuleWithResponse(ctx, u)
	if err != nil {
		return nil, err
	}
	if r.JSON200 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	return r.JSON200, nil
}

func (a *API) UpdateAlertRule(ctx context.Context, id string, body client.UpdateAlertRuleRequest) (*client.AlertRule, error) {
	u, err := parseID(id)
	if err != nil {
		return nil, err
	}
	r, err := a.c.UpdateAlertRuleWithResponse(ctx, u, body)
	if err != nil {
		return nil, err
	}
	if r.JSON200 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	return r.JSON200, nil
}

func (a *API) DeleteAlertRule(ctx context.Context, id string) error {
	u, err := parseID(id)
	if err != nil {
		return err
	}
	r, err := a.c.DeleteAlertRuleWithResponse(ctx, u)
	if err != nil {
		return err
	}
	if r.StatusCode() != http.StatusNoContent {
		return problem(r.StatusCode(), r.Body)
	}
	return nil
}

func uuids(ids []string) ([]openapi_types.UUID, error) {
	out := make([]openapi_types.UUID, 0, len(ids))
	for _, s := range ids {
		u, err := parseID(s)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, nil
}
