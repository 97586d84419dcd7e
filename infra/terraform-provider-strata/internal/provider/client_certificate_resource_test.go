package provider

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// clientCertificateConfig: a TLS cluster requiring client certificates, a certificate for it when withCert, and the
// ca_rotation block when trigger is not "".
func clientCertificateConfig(withCert bool, trigger string) string {
	rotation := ""
	if trigger != "" {
		rotation = fmt.Sprintf("ca_rotation = {\n    trigger              = %q\n    retire_after_seconds = 0\n  }", trigger)
	}
	cert := ""
	if withCert {
		cert = `
resource "strata_client_certificate" "app" {
  cluster_id    = strata_cluster.test.id
  name          = "billing"
  validity_days = 30
}`
	}
	return fmt.Sprintf(`
resource "strata_cluster" "test" {
  name                = "tf-mtls"
  shards              = 1
  replicas_per_shard  = 0
  memory_mb_per_shard = 16
  tls                 = "required"
  tls_client_auth     = "required"
  %s
}
%s
`, rotation, cert)
}

// tlsAuth opens TLS to one instance, verifying it against caPEM and presenting the client certificate (none when
// certPEM is ""), and returns the answer to AUTH (+OK), or the error of a refused handshake.
func tlsAuth(address, caPEM, certPEM, keyPEM, user, password string) (string, error) {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM([]byte(caPEM)) {
		return "", errors.New("no CA in ca_certificate")
	}
	cfg := &tls.Config{RootCAs: pool, ServerName: strings.Split(address, ":")[0], MinVersion: tls.VersionTLS12}
	if certPEM != "" {
		pair, err := tls.X509KeyPair([]byte(certPEM), []byte(keyPEM))
		if err != nil {
			return "", err
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	c, err := tls.DialWithDialer(&net.Dialer{Timeout: 3 * time.Second}, "tcp", address, cfg)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	if _, err := fmt.Fprintf(c, "*3\r\n$4\r\nAUTH\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n", len(user), user, len(password), password); err != nil {
		return "", err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return strings.TrimSpace(line), err
}

// eventually retries check for up to 20 s (a certificate, a revocation or a CA takes seconds to reach every instance).
func eventually(what string, check func() error) error {
	deadline := time.Now().Add(20 * time.Second)
	for {
		err := check()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: %w", what, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// TestAccClientCertificateAndCARotation: a client certificate of a cluster requiring them opens a connection (and none
// without it); import by <cluster_id>/<id> without its key; one revoked outside Terraform is planned anew; a new
// ca_rotation trigger rotates the CA in place (a new CA, the certificate still accepted against it); removed from the
// configuration, the certificate is revoked and refused.
func TestAccClientCertificateAndCARotation(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	// Beside the other acceptance tests on the same stack: each uses names of its own.
	t.Parallel()
	api := testAPI(t)
	var cid, certID, firstCA, seed, user, password string
	var certPEM, keyPEM string
	attrs := func(s *terraform.State, name string) map[string]string {
		return s.RootModule().Resources[name].Primary.Attributes
	}
	// connects: with the certificate, AUTH succeeds against ca; without one, the handshake is refused.
	connects := func(ca string) error {
		return eventually("client certificate accepted", func() error {
			if got, err := tlsAuth(seed, ca, certPEM, keyPEM, user, password); got != "+OK" {
				return fmt.Errorf("with the certificate: %q %v", got, err)
			}
			if got, err := tlsAuth(seed, ca, "", "", user, password); err == nil || got == "+OK" {
				return fmt.Errorf("without a certificate: %q %v (want a refused handshake)", got, err)
			}
			return nil
		})
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6,
		Steps: []resource.TestStep{
			{
				Config: clientCertificateConfig(true, ""),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestMatchResourceAttr("strata_client_certificate.app", "certificate_pem", regexpMust(`^-----BEGIN CERTIFICATE-----\n`)),
					resource.TestMatchResourceAttr("strata_client_certificate.app", "private_key_pem", regexpMust(`^-----BEGIN PRIVATE KEY-----\n`)),
					resource.TestMatchResourceAttr("strata_client_certificate.app", "serial_number", regexpMust(`^[0-9A-F]+$`)),
					resource.TestCheckResourceAttr("strata_client_certificate.app", "revocable", "true"),
					resource.TestCheckResourceAttr("strata_client_certificate.app", "name", "billing"),
					func(s *terraform.State) error {
						cluster, cert := attrs(s, "strata_cluster.test"), attrs(s, "strata_client_certificate.app")
						cid, certID, firstCA = cluster["id"], cert["id"], cluster["ca_certificate"]
						certPEM, keyPEM = cert["certificate_pem"], cert["private_key_pem"]
						user, password = cluster["username"], cluster["password"]
						conn, err := api.Connection(context.Background(), cid)
						if err != nil {
							return err
						}
						seed = conn.Seeds[0]
						return connects(firstCA)
					},
				),
			},
			{
				ResourceName:            "strata_client_certificate.app",
				ImportState:             true,
				ImportStateIdFunc:       func(*terraform.State) (string, error) { return cid + "/" + certID, nil },
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"certificate_pem", "private_key_pem", "validity_days"},
			},
			{
				PreConfig: func() {
					if _, err := api.RevokeClientCertificate(context.Background(), cid, certID); err != nil {
						t.Fatalf("revoke outside Terraform: %v", err)
					}
				},
				Config:             clientCertificateConfig(true, ""),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("strata_client_certificate.app", plancheck.ResourceActionCreate),
				}},
			},
			{
				// A new certificate, and the CA rotated in place in the same apply.
				Config: clientCertificateConfig(true, "2026-01"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("strata_cluster.test", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("strata_client_certificate.app", plancheck.ResourceActionCreate),
				}},
				Check: func(s *terraform.State) error {
					cert := attrs(s, "strata_client_certificate.app")
					if cert["id"] == certID {
						return errors.New("the revoked certificate was kept")
					}
					certID, certPEM, keyPEM = cert["id"], cert["certificate_pem"], cert["private_key_pem"]
					// The old CA is retired at once (retire_after_seconds 0): wait for the rotation to end, then the API's CA alone.
					var ca string
					if err := eventually("the old CA retired", func() error {
						conn, err := api.Connection(context.Background(), cid)
						if err != nil {
							return err
						}
						if conn.CaCertificate == nil || strings.Count(*conn.CaCertificate, "BEGIN CERTIFICATE") != 1 {
							return errors.New("the connection still lists two CAs")
						}
						ca = *conn.CaCertificate
						return nil
					}); err != nil {
						return err
					}
					if ca == firstCA {
						return errors.New("the CA did not change")
					}
					// Once the instances serve certificates without the cross-certificate, a client trusting only the old CA is refused.
					if err := eventually("the old CA refused", func() error {
						if got, err := tlsAuth(seed, firstCA, certPEM, keyPEM, user, password); err == nil && got == "+OK" {
							return errors.New("an instance is still verified against the retired CA")
						}
						return nil
					}); err != nil {
						return err
					}
					return connects(ca)
				},
			},
			{
				Config: clientCertificateConfig(true, "2026-01"),
				Check:  resource.TestMatchResourceAttr("strata_cluster.test", "ca_certificate", regexpMust(`^-----BEGIN CERTIFICATE-----\n[^-]+-----END CERTIFICATE-----\n?$`)),
			},
			{
				// Removed from the configuration: revoked, and refused from then on.
				Config: clientCertificateConfig(false, "2026-01"),
				Check: func(*terraform.State) error {
					c, err := api.ClientCertificate(context.Background(), cid, certID)
					if err != nil {
						return err
					}
					if c.RevokedAt == nil {
						return errors.New("the certificate is not revoked after destroy")
					}
					conn, err := api.Connection(context.Background(), cid)
					if err != nil {
						return err
					}
					return eventually("the revoked certificate refused", func() error {
						if got, err := tlsAuth(seed, *conn.CaCertificate, certPEM, keyPEM, user, password); err == nil && got == "+OK" {
							return errors.New("the revoked certificate still opens a connection")
						}
						return nil
					})
				},
			},
		},
	})
}

func TestCARotationAskedOnANewTrigger(t *testing.T) {
	ctx := context.Background()
	rot := func(trigger string) types.Object { return caRotationValue(trigger, 60) }
	none := nullCARotation()
	for _, c := range []struct {
		name        string
		plan, state types.Object
		want        bool
	}{
		{"unchanged", rot("a"), rot("a"), false},
		{"a new trigger", rot("b"), rot("a"), true},
		{"the block added", rot("a"), none, true},
		{"the block removed", none, rot("a"), false},
		{"never set", none, none, false},
	} {
		got, d := caRotationAsked(ctx, c.plan, c.state)
		if d.HasError() {
			t.Fatalf("%s: %v", c.name, d)
		}
		if (got != nil) != c.want {
			t.Fatalf("%s: rotation asked %v, want %v", c.name, got != nil, c.want)
		}
		if got != nil && got.RetireAfterSeconds.ValueInt64() != 60 {
			t.Fatalf("%s: retire_after_seconds %v", c.name, got.RetireAfterSeconds)
		}
	}
}

func caRotationValue(trigger string, retire int64) types.Object {
	return types.ObjectValueMust(caRotationAttrTypes, map[string]attr.Value{"trigger": types.StringValue(trigger), "retire_after_seconds": types.Int64Value(retire)})
}

func nullCARotation() types.Object { return types.ObjectNull(caRotationAttrTypes) }
