package command

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

var (
	echoProvisionerOnce sync.Once
	echoProvisionerPath string
	echoProvisionerErr  error
)

// echoProvisioner builds the test provisioner plugin
// (internal/providers/plugin/testdata/provisioner) once.
func echoProvisioner(t *testing.T) string {
	t.Helper()
	echoProvisionerOnce.Do(func() {
		bin, err := e2eBinDir()
		if err != nil {
			echoProvisionerErr = err
			return
		}
		echoProvisionerPath = filepath.Join(bin, "provisioner", "terraform-provisioner-echo")
		echoProvisionerErr = goBuild(filepath.Join("..", "providers", "plugin", "testdata", "provisioner"), ".", echoProvisionerPath, "-s -w")
	})
	if echoProvisionerErr != nil {
		t.Fatal(echoProvisionerErr)
	}
	return echoProvisionerPath
}

// TestE2EProvisionerPlugin: a provisioner plugin (terraform-provisioner-
// NAME in the working directory, or in terraform.d/plugins/OS_ARCH) runs
// as Terraform runs it: its validation, its output at creation and
// destruction, its connection, a failure that taints the object, and the
// errors when it is missing (Terraform's e2etest TestProvisionerPlugin).
// The exit codes and the lines that matter are compared with terraform's
// where it is installed.
func TestE2EProvisionerPlugin(t *testing.T) {
	t.Parallel() // its own directories
	plugin := echoProvisioner(t)
	const cfg = `variable "fail" {
  default = false
}
variable "message" {
  default = "hello"
}
resource "terraform_data" "a" {
  provisioner "echo" {
    message = "${var.message} ${self.id}"
    fail    = var.fail
  }
  provisioner "echo" {
    when    = destroy
    message = "bye"
    connection {
      host = "example.com"
      port = 2222
    }
  }
}
`
	uuid := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	run := func(exe string) []string {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), cfg)
		var got []string
		step := func(args ...string) {
			r := runWith(t, dir, "", exe, nil, append(args, "-no-color")...)
			var lines []string
			for _, l := range strings.Split(r.stdout+r.stderr, "\n") {
				if strings.Contains(l, "replaced because:") {
					continue // strata's replace reasons (differences.md)
				}
				if strings.Contains(l, "(echo):") || strings.Contains(l, "Provisioning with") || strings.HasPrefix(l, "Error: ") ||
					strings.Contains(l, "complete!") || strings.Contains(l, "is tainted") || strings.Contains(l, "Success!") {
					lines = append(lines, uuid.ReplaceAllString(strings.TrimSpace(l), "UUID"))
				}
			}
			got = append(got, fmt.Sprintf("%s: exit %d\n  %s", strings.Join(args, " "), r.code, strings.Join(lines, "\n  ")))
		}
		// Without the plugin.
		step("validate")
		step("plan")
		// In the working directory, then in terraform.d/plugins/OS_ARCH.
		copyExecutable(t, plugin, filepath.Join(dir, "terraform-provisioner-echo"))
		step("validate")
		step("apply", "-auto-approve")
		if err := os.Remove(filepath.Join(dir, "terraform-provisioner-echo")); err != nil {
			t.Fatal(err)
		}
		copyExecutable(t, plugin, filepath.Join(dir, "terraform.d", "plugins", hostPlatform, "terraform-provisioner-echo"))
		step("destroy", "-auto-approve")
		step("apply", "-auto-approve", "-var", "fail=true")
		step("plan")
		// The plugin's own validation, in validate and before a plan.
		writeFile(t, filepath.Join(dir, "main.tf"), strings.Replace(cfg, `"${var.message} ${self.id}"`, `"invalid"`, 1))
		step("validate")
		step("apply", "-auto-approve")
		return got
	}
	got := run(strataBin)
	for _, want := range []string{
		"validate: exit 1\n  Error: Missing required provisioner plugin",
		"plan: exit 1\n  Error: Failed to load plugin schemas",
		"terraform_data.a (echo): message: hello UUID",
		"terraform_data.a (echo): message: bye\n  terraform_data.a (echo): host: example.com",
		"apply -auto-approve -var fail=true: exit 1",
		"Error: Echo failed",
		"is tainted, so must be replaced",
		"validate: exit 1\n  Error: Invalid message",
		"apply -auto-approve: exit 1\n  Error: Invalid message",
	} {
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("strata's output lacks %q:\n%s", want, strings.Join(got, "\n"))
		}
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	want := run(tf)
	if strings.Join(want, "\n") != strings.ReplaceAll(strings.Join(got, "\n"), "strata", "Terraform") {
		t.Errorf("differs from terraform:\nterraform:\n%s\nstrata:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}

// copyExecutable puts the executable file at from at to: a hard link, or a copy.
func copyExecutable(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	// A link where it can be: a file this process writes can be held open
	// for writing by a child another test forks meanwhile (until the
	// child's exec closes it), and running it then fails with "text file
	// busy".
	if os.Link(from, to) == nil {
		return
	}
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}
