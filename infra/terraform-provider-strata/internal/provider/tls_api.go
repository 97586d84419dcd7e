package provider

import (
	"context"
	"fmt"

	"github.com/strata/terraform-provider-strata/internal/client"
)

// CreateClientCertificate issues a client certificate of a TLS cluster; the answer carries its private key (shown once).
func (a *API) CreateClientCertificate(ctx context.Context, clusterID string, req client.CreateClientCertificateRequest) (*client.ClientCertificateWithKey, error) {
	u, err := parseID(clusterID)
	if err != nil {
		return nil, err
	}
	r, err := a.c.CreateClientCertificateWithResponse(ctx, u, req)
	if err != nil {
		return nil, err
	}
	if r.JSON201 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	return r.JSON201, nil
}

// ClientCertificate finds one client certificate of a cluster by id, revoked ones included
// (ErrNotFound when the cluster or the certificate is gone).
func (a *API) ClientCertificate(ctx context.Context, clusterID, id string) (*client.ClientCertificate, error) {
	u, err := parseID(clusterID)
	if err != nil {
		return nil, err
	}
	r, err := a.c.ListClientCertificatesWithResponse(ctx, u)
	if err != nil {
		return nil, err
	}
	if r.JSON200 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	for i := range r.JSON200.Items {
		if r.JSON200.Items[i].Id.String() == id {
			return &r.JSON200.Items[i], nil
		}
	}
	return nil, fmt.Errorf("%w: cluster %s has no client certificate %s", ErrNotFound, clusterID, id)
}

// RevokeClientCertificate revokes a client certificate: every instance refuses it within seconds (revoking again answers the same).
func (a *API) RevokeClientCertificate(ctx context.Context, clusterID, id string) (*client.ClientCertificate, error) {
	r, err := a.c.RevokeClientCertificateWithResponse(ctx, clusterID, id)
	if err != nil {
		return nil, err
	}
	if r.JSON200 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	return r.JSON200, nil
}

// RotateCA starts a rotate-ca operation on a TLS cluster; the old CA stays trusted retireAfterSeconds (nil: the API's default)
// after every instance serves a certificate of the new one.
func (a *API) RotateCA(ctx context.Context, clusterID string, retireAfterSeconds *int) (*client.Operation, error) {
	u, err := parseID(clusterID)
	if err != nil {
		return nil, err
	}
	r, err := a.c.RotateCaWithResponse(ctx, u, client.RotateCaRequest{RetireAfterSeconds: retireAfterSeconds})
	if err != nil {
		return nil, err
	}
	if r.JSON202 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	return &r.JSON202.Operation, nil
}
