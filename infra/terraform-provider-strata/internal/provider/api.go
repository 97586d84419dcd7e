package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/strata/terraform-provider-strata/internal/client"
)

// API wraps the generated client with what a provider needs: problem+json
// errors, retries on 429/503 honoring Retry-After, and waiting for operations
// with polling and backoff.
type API struct {
	c        *client.ClientWithResponses
	http     *http.Client
	endpoint string
	token    string
	// Poll is the first polling interval; it grows 1.5x up to MaxPoll.
	Poll    time.Duration
	MaxPoll time.Duration
}

// ErrNotFound is a 404 from the API (also for resources of another organization).
var ErrNotFound = errors.New("not found")

// APIError is a problem+json answer.
type APIError struct {
	Status int
	Code   string
	Detail string
	Fields []string
}

func (e *APIError) Error() string {
	msg := fmt.Sprintf("Strata API: HTTP %d %s", e.Status, e.Code)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if len(e.Fields) > 0 {
		msg += " (" + strings.Join(e.Fields, "; ") + ")"
	}
	return msg
}

func problem(status int, body []byte) error {
	if status == http.StatusNotFound {
		return fmt.Errorf("%w: %s", ErrNotFound, strings.TrimSpace(string(body)))
	}
	var p client.Problem
	e := &APIError{Status: status}
	if json.Unmarshal(body, &p) == nil && p.Code != "" {
		e.Code = string(p.Code)
		if p.Detail != nil {
			e.Detail = *p.Detail
		}
		if p.Errors != nil {
			for _, f := range *p.Errors {
				e.Fields = append(e.Fields, f.Field+": "+f.Message)
			}
		}
	} else {
		e.Code = "unexpected_response"
		e.Detail = strings.TrimSpace(string(body))
	}
	return e
}

// retryAfter reads Retry-After (seconds or an HTTP date); zero when absent.
func retryAfter(h http.Header) time.Duration {
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return time.Until(t)
	}
	return 0
}

// retryDoer retries 429 and 503 answers after Retry-After (or a backoff), until the context ends.
type retryDoer struct {
	inner *http.Client
	token string
	ua    string
}

func (d *retryDoer) Do(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		body = b
	}
	wait := 500 * time.Millisecond
	for attempt := 0; ; attempt++ {
		if body != nil {
			req.Body = io.NopCloser(bytes.NewReader(body))
		}
		req.Header.Set("Authorization", "Bearer "+d.token)
		req.Header.Set("User-Agent", d.ua)
		res, err := d.inner.Do(req)
		if err != nil {
			return nil, err
		}
		if (res.StatusCode != http.StatusTooManyRequests && res.StatusCode != http.StatusServiceUnavailable) || attempt >= 8 {
			return res, nil
		}
		delay := retryAfter(res.Header)
		if delay <= 0 {
			delay = wait
			wait = min(wait*2, 10*time.Second)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		select {
		case <-req.Context().Done():
			return nil, req.Context().Err()
		case <-time.After(delay):
		}
	}
}

// NewAPI builds a client for endpoint (e.g. http://127.0.0.1:8080) with a bearer token.
func NewAPI(endpoint, token, version string) (*API, error) {
	endpoint = strings.TrimRight(endpoint, "/")
	hc := &http.Client{Timeout: 60 * time.Second}
	doer := &retryDoer{inner: hc, token: token, ua: "terraform-provider-strata/" + version}
	c, err := client.NewClientWithResponses(endpoint, client.WithHTTPClient(doer))
	if err != nil {
		return nil, err
	}
	return &API{c: c, http: &http.Client{Transport: doerTransport{doer}}, endpoint: endpoint, token: token, Poll: 500 * time.Millisecond, MaxPoll: 5 * time.Second}, nil
}

// doerTransport lets hand-written requests share the retrying doer.
type doerTransport struct{ d *retryDoer }

func (t doerTransport) RoundTrip(r *http.Request) (*http.Response, error) { return t.d.Do(r) }

func parseID(id string) (uuid.UUID, error) {
	u, err := uuid.Parse(id)
	if err != nil {
		return uuid.UUID{}, fmt.Errorf("%w: %q is not a Strata id (a UUID)", ErrNotFound, id)
	}
	return u, nil
}

func (a *API) CreateCluster(ctx context.Context, req client.CreateClusterRequest) (*client.ClusterWithOperation, error) {
	r, err := a.c.CreateClusterWithResponse(ctx, req)
	if err != nil {
		return nil, err
	}
	if r.JSON202 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	return r.JSON202, nil
}

func (a *API) GetCluster(ctx context.Context, id string) (*client.Cluster, error) {
	u, err := parseID(id)
	if err != nil {
		return nil, err
	}
	r, err := a.c.GetClusterWithResponse(ctx, u)
	if err != nil {
		return nil, err
	}
	if r.JSON200 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	return r.JSON200, nil
}

func (a *API) ListClusters(ctx context.Context) ([]client.Cluster, error) {
	r, err := a.c.ListClustersWithResponse(ctx)
	if err != nil {
		return nil, err
	}
	if r.JSON200 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	return r.JSON200.Items, nil
}

// ClusterPatch holds the spec fields that change in place: the generated PATCH /v1/clusters/{id}
// body, so a renamed or retyped API field breaks the provider's build.
type ClusterPatch = client.UpdateClusterRequest

// ErrPatchUnsupported: this control plane has no PATCH /v1/clusters/{id} yet.
var ErrPatchUnsupported = errors.New("this Strata control plane cannot change clusters in place (no PATCH /v1/clusters/{id}); upgrade it, or recreate the cluster")

// UpdateCluster sends a PATCH and returns the operation it started (nil when the
// change needed none). A 409 because another change is running is retried with
// backoff until ctx ends, so two applies in a row do not fail.
func (a *API) UpdateCluster(ctx context.Context, id string, patch ClusterPatch) (*client.Operation, error) {
	u, err := parseID(id)
	if err != nil {
		return nil, err
	}
	wait := a.Poll
	for {
		r, err := a.c.UpdateClusterWithResponse(ctx, u, nil, patch)
		if err != nil {
			return nil, err
		}
		switch status := r.StatusCode(); {
		case r.JSON202 != nil:
			return &r.JSON202.Operation, nil
		case status == http.StatusOK:
			return nil, nil
		case status == http.StatusNotFound && strings.Contains(string(r.Body), "No route for"):
			return nil, ErrPatchUnsupported
		case status == http.StatusMethodNotAllowed:
			return nil, ErrPatchUnsupported
		case status == http.StatusConflict && strings.Contains(string(r.Body), "operation"):
			delay := retryAfter(r.HTTPResponse.Header)
			if delay <= 0 {
				delay = wait
				wait = min(wait*3/2, a.MaxPoll)
			}
			select {
			case <-ctx.Done():
				return nil, fmt.Errorf("another change is still running on cluster %s: %w", id, ctx.Err())
			case <-time.After(delay):
			}
		default:
			return nil, problem(status, r.Body)
		}
	}
}

// RemoveMaintenanceWindow sends PATCH {"maintenanceWindow": null} (applied at once, without an operation).
func (a *API) RemoveMaintenanceWindow(ctx context.Context, id string) error {
	u, err := parseID(id)
	if err != nil {
		return err
	}
	r, err := a.c.UpdateClusterWithBodyWithResponse(ctx, u, nil, "application/json", strings.NewReader(`{"maintenanceWindow":null}`))
	if err != nil {
		return err
	}
	if r.StatusCode() == http.StatusOK {
		return nil
	}
	return problem(r.StatusCode(), r.Body)
}

func (a *API) DeleteCluster(ctx context.Context, id string) error {
	u, err := parseID(id)
	if err != nil {
		return err
	}
	r, err := a.c.DeleteClusterWithResponse(ctx, u)
	if err != nil {
		return err
	}
	if r.StatusCode() != http.StatusAccepted {
		return problem(r.StatusCode(), r.Body)
	}
	return nil
}

func (a *API) Connection(ctx context.Context, id string) (*client.Connection, error) {
	u, err := parseID(id)
	if err != nil {
		return nil, err
	}
	r, err := a.c.GetConnectionWithResponse(ctx, u)
	if err != nil {
		return nil, err
	}
	if r.JSON200 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	sort.Strings(r.JSON200.Seeds)
	return r.JSON200, nil
}

// ListNodes returns the nodes the caller may see: every node with its capacity for a platform
// admin (scope fleet), only the nodes running the organization's clusters, without capacity, for
// anyone else (scope organization).
func (a *API) ListNodes(ctx context.Context) (*client.NodeList, error) {
	r, err := a.c.ListNodesWithResponse(ctx)
	if err != nil {
		return nil, err
	}
	if r.JSON200 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	return r.JSON200, nil
}

// poll calls probe until it reports done, sleeping with backoff (or the server's Retry-After) in between.
func (a *API) poll(ctx context.Context, what string, probe func() (done bool, retryAfter time.Duration, err error)) error {
	wait := a.Poll
	for {
		done, ra, err := probe()
		if err != nil || done {
			return err
		}
		delay := wait
		if ra > 0 {
			delay = ra
		}
		wait = min(wait*3/2, a.MaxPoll)
		select {
		case <-ctx.Done():
			return fmt.Errorf("timed out waiting for %s: %w", what, ctx.Err())
		case <-time.After(delay):
		}
	}
}

// WaitOperation polls an operation until it succeeds (nil), fails or is cancelled (error).
func (a *API) WaitOperation(ctx context.Context, id string) (*client.Operation, error) {
	return a.waitOperation(ctx, id, func(*client.Operation) bool { return false })
}

// WaitOperationStep polls an operation until its step named step succeeded or the operation did (nil),
// or it fails or is cancelled (error).
func (a *API) WaitOperationStep(ctx context.Context, id, step string) (*client.Operation, error) {
	return a.waitOperation(ctx, id, func(op *client.Operation) bool {
		for _, s := range op.Steps {
			if s.Name == step {
				return s.State == client.OperationStepStateSucceeded
			}
		}
		return false
	})
}

// waitOperation polls until the operation succeeds or enough (reached) is done.
func (a *API) waitOperation(ctx context.Context, id string, reached func(*client.Operation) bool) (*client.Operation, error) {
	u, err := parseID(id)
	if err != nil {
		return nil, err
	}
	var last *client.Operation
	err = a.poll(ctx, "operation "+id, func() (bool, time.Duration, error) {
		r, err := a.c.GetOperationWithResponse(ctx, u)
		if err != nil {
			return false, 0, err
		}
		if r.JSON200 == nil {
			return false, 0, problem(r.StatusCode(), r.Body)
		}
		last = r.JSON200
		switch last.State {
		case "succeeded":
			return true, 0, nil
		case "failed", "cancelled":
			msg := string(last.State)
			if last.Error != nil {
				msg += ": " + last.Error.Code + ": " + last.Error.Message
			}
			return false, 0, fmt.Errorf("operation %s (%s) %s", id, last.Kind, msg)
		}
		if reached(last) {
			return true, 0, nil
		}
		return false, retryAfter(r.HTTPResponse.Header), nil
	})
	if err != nil && last != nil && ctx.Err() != nil {
		err = fmt.Errorf("%w (operation %s at %.0f%%)", err, last.State, last.Progress*100)
	}
	return last, err
}

// WaitClusterGone polls until GET /v1/clusters/{id} is 404.
func (a *API) WaitClusterGone(ctx context.Context, id string) error {
	return a.poll(ctx, "cluster "+id+" to be deleted", func() (bool, time.Duration, error) {
		_, err := a.GetCluster(ctx, id)
		if errors.Is(err, ErrNotFound) {
			return true, 0, nil
		}
		return false, 0, err
	})
}

func (a *API) CreateToken(ctx context.Context, req client.CreateTokenRequest) (*client.ApiToken, error) {
	r, err := a.c.CreateTokenWithResponse(ctx, req)
	if err != nil {
		return nil, err
	}
	if r.JSON201 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	return r.JSON201, nil
}

func (a *API) GetToken(ctx context.Context, id string) (*client.ApiTokenInfo, error) {
	u, err := parseID(id)
	if err != nil {
		return nil, err
	}
	r, err := a.c.GetTokenWithResponse(ctx, u)
	if err != nil {
		return nil, err
	}
	if r.JSON200 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	return r.JSON200, nil
}

func (a *API) RevokeToken(ctx context.Context, id string) error {
	u, err := parseID(id)
	if err != nil {
		return err
	}
	r, err := a.c.RevokeTokenWithResponse(ctx, u)
	if err != nil {
		return err
	}
	if r.JSON200 == nil {
		return problem(r.StatusCode(), r.Body)
	}
	return nil
}

// CreateDatabaseUser adds a database user to a cluster; the answer carries its password (shown once).
func (a *API) CreateDatabaseUser(ctx context.Context, clusterID string, req client.CreateDatabaseUserRequest) (*client.DatabaseUserWithPassword, error) {
	u, err := parseID(clusterID)
	if err != nil {
		return nil, err
	}
	r, err := a.c.CreateDatabaseUserWithResponse(ctx, u, req)
	if err != nil {
		return nil, err
	}
	if r.JSON201 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	return r.JSON201, nil
}

// DatabaseUser finds one user of a cluster by name (ErrNotFound when the cluster or the user is gone).
func (a *API) DatabaseUser(ctx context.Context, clusterID, name string) (*client.DatabaseUser, error) {
	u, err := parseID(clusterID)
	if err != nil {
		return nil, err
	}
	r, err := a.c.ListDatabaseUsersWithResponse(ctx, u)
	if err != nil {
		return nil, err
	}
	if r.JSON200 == nil {
		return nil, problem(r.StatusCode(), r.Body)
	}
	for i := range r.JSON200.Items {
		if r.JSON200.Items[i].Name == name {
			return &r.JSON200.Items[i], nil
		}
	}
	return nil, fmt.Errorf("%w: cluster %s has no database user %q", ErrNotFound, clusterID, name)
}

// DeleteDatabaseUser removes a user from every instance of the cluster (its connections are closed).
func (a *API) DeleteDatabaseUser(ctx context.Context, clusterID, name string) error {
	r, err := a.c.DeleteDatabaseUserWithResponse(ctx, clusterID, name)
	if err != nil {
		return err
	}
	if r.StatusCode() != http.StatusNoContent {
		return problem(r.StatusCode(), r.Body)
	}
	return nil
}
