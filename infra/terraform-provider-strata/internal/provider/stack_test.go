package provider

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestMain starts a live local Strata (infra/local's startStack, through testdata/stack.ts)
// for acceptance tests, unless STRATA_ENDPOINT and STRATA_TOKEN already name one.
func TestMain(m *testing.M) {
	if os.Getenv("TF_ACC") == "" || (os.Getenv("STRATA_ENDPOINT") != "" && os.Getenv("STRATA_TOKEN") != "") {
		os.Exit(m.Run())
	}
	stop, err := startStack()
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot start the local Strata stack:", err)
		os.Exit(1)
	}
	code := m.Run()
	stop()
	os.Exit(code)
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "../../../.."))
}

func startStack() (func(), error) {
	root := repoRoot()
	cmd := exec.Command(filepath.Join(root, "node_modules/.bin/tsx"), filepath.Join(root, "infra/terraform-provider-strata/testdata/stack.ts"))
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop := func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			_ = cmd.Process.Kill()
		}
	}
	type info struct{ URL, Token string }
	got := make(chan info, 1)
	failed := make(chan error, 1)
	go func() {
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if err != nil {
			failed <- fmt.Errorf("stack exited before it was ready: %w", err)
			return
		}
		var i info
		if err := json.Unmarshal([]byte(line), &i); err != nil {
			failed <- fmt.Errorf("unexpected output %q: %w", line, err)
			return
		}
		got <- i
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case i := <-got:
		os.Setenv("STRATA_ENDPOINT", i.URL)
		os.Setenv("STRATA_TOKEN", i.Token)
		return stop, nil
	case err := <-failed:
		stop()
		return nil, err
	case <-time.After(4 * time.Minute):
		stop()
		return nil, fmt.Errorf("stack not ready within 4 minutes")
	}
}
