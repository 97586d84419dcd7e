package client

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"testing"
)

// The generated client matches openapi.json next to it (regenerate with `npm run generate:terraform-client`).
// That openapi.json itself is checked against control-plane/api/openapi.json by a unit test in the npm suite.
func TestGeneratedFromCommittedSpec(t *testing.T) {
	b, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if hex.EncodeToString(sum[:]) != SpecSHA256 {
		t.Fatal("client.gen.go is stale: run `npm run generate:terraform-client`")
	}
}
