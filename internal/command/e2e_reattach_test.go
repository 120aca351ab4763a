package command

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startUnmanagedProvider starts a test provider binary in debug mode, the
// way terraform-plugin-testing runs the provider under test, and returns
// the TF_REATTACH_PROVIDERS value it prints and its process.
func startUnmanagedProvider(t *testing.T, exe string) (string, *os.Process) {
	t.Helper()
	cmd := exec.Command(exe, "-debug")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if v, ok := strings.CutPrefix(line, "TF_REATTACH_PROVIDERS='"); ok {
				found <- strings.TrimSuffix(v, "'")
			}
		}
	}()
	select {
	case v := <-found:
		return v, cmd.Process
	case <-time.After(60 * time.Second):
		t.Fatal("the provider did not print TF_REATTACH_PROVIDERS")
		return "", nil
	}
}

// TestE2EReattachProviders: with TF_REATTACH_PROVIDERS, init installs
// nothing for the provider and writes no lock entry for it, plan and
// apply talk to the running process, and strata leaves that process
// running (it was started in test mode), over protocols 5 and 6; and
// Terraform does the same on the same directory.
func TestE2EReattachProviders(t *testing.T) {
	t.Parallel()
	platform := runtime.GOOS + "_" + runtime.GOARCH
	tests := map[string]struct {
		exe    func(t *testing.T) string
		config string
		addr   string
	}{
		"protocol 6": {
			exe: func(t *testing.T) string {
				return filepath.Join(testProviderMirror(t), "registry.terraform.io/strata/stratafw/0.1.0", platform, "terraform-provider-stratafw_v0.1.0")
			},
			config: `terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
  }
}
provider "stratafw" {
  prefix = "x-"
}
resource "stratafw_thing" "a" {
  name = "one"
}
output "id" {
  value = stratafw_thing.a.id
}
`,
			addr: "stratafw_thing.a",
		},
		"protocol 5": {
			exe: func(t *testing.T) string {
				return filepath.Join(testProviderMirrorV5(t), "registry.terraform.io/strata/stratav5/0.1.0", platform, "terraform-provider-stratav5_v0.1.0")
			},
			config: `terraform {
  required_providers {
    stratav5 = { source = "strata/stratav5" }
  }
}
resource "stratav5_thing" "a" {
  name = "one"
}
`,
			addr: "stratav5_thing.a",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			reattach, proc := startUnmanagedProvider(t, tc.exe(t))
			env := []string{"TF_REATTACH_PROVIDERS=" + reattach}
			run := func(bin string) string {
				t.Helper()
				dir := t.TempDir()
				writeFile(t, filepath.Join(dir, "main.tf"), tc.config)
				r := runWith(t, dir, "", bin, env, "init", "-no-color")
				if r.code != 0 {
					t.Fatalf("%s init: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
				}
				if strings.Contains(r.stdout, "Installing") || strings.Contains(r.stdout, "Finding") {
					t.Errorf("%s init installed the unmanaged provider:\n%s", bin, r.stdout)
				}
				for _, p := range []string{".terraform/providers", ".terraform.lock.hcl"} {
					if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
						t.Errorf("%s init wrote %s for an unmanaged provider", bin, p)
					}
				}
				r = runWith(t, dir, "", bin, env, "apply", "-auto-approve", "-no-color")
				if r.code != 0 {
					t.Fatalf("%s apply: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
				}
				r = runWith(t, dir, "", bin, env, "state", "list")
				if got := strings.TrimSpace(r.stdout); got != tc.addr {
					t.Errorf("%s state list = %q, want %q", bin, got, tc.addr)
				}
				r = runWith(t, dir, "", bin, env, "plan", "-detailed-exitcode", "-no-color")
				if r.code != 0 {
					t.Errorf("%s plan after apply: exit %d, want 0\n%s%s", bin, r.code, r.stdout, r.stderr)
				}
				// Test mode: the provider belongs to whoever started it.
				if err := proc.Signal(syscall.Signal(0)); err != nil {
					t.Fatalf("%s ended the unmanaged provider process: %v", bin, err)
				}
				return dir
			}
			run(strataBin)
			if tf, err := referenceTerraform(); err == nil {
				run(tf)
			}
		})
	}
}

// TestE2EReattachProvidersInvalid: a TF_REATTACH_PROVIDERS strata cannot
// read stops every command, with Terraform's message and exit code.
func TestE2EReattachProvidersInvalid(t *testing.T) {
	t.Parallel()
	env := []string{"TF_REATTACH_PROVIDERS={not json"}
	dir := t.TempDir()
	r := runWith(t, dir, "", strataBin, env, "version")
	want := "Invalid format for TF_REATTACH_PROVIDERS: invalid character 'n' looking for beginning of object key string"
	if r.code != 1 || strings.TrimSpace(r.stderr) != want {
		t.Errorf("strata version: exit %d, stderr %q; want 1, %q", r.code, r.stderr, want)
	}
	if tf, err := referenceTerraform(); err == nil {
		r := runWith(t, dir, "", tf, env, "version")
		if r.code != 1 || !strings.HasSuffix(strings.TrimSpace(r.stderr), want) {
			t.Errorf("terraform version: exit %d, stderr %q; want 1, ending in %q", r.code, r.stderr, want)
		}
	}
}
