// Command terraform-provider-strata is the Terraform provider for Strata, a managed Redis Cluster service.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/strata/terraform-provider-strata/internal/provider"
)

// version is set by the build (-ldflags "-X main.version=...").
var version = "0.1.0"

func main() {
	debug := flag.Bool("debug", false, "run with support for debuggers like delve")
	flag.Parse()
	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/strata/strata",
		Debug:   *debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
