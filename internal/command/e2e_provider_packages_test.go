package command

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestE2EProviderPackagesMatchTerraform: which commands refuse to run
// when a provider package the lock file selects was altered or removed
// after init, with which message and exit code, compared with terraform
// (Terraform's e2etest TestProviderTampering checks some of them). Those
// that open the backend (providers, output, show, graph, the state and
// workspace commands, taint, force-unlock, console) say "Required plugins
// are not installed", after the backend's own errors; show FILE, test and
// validate give an error per package; state rm, mv and replace-provider
// print it as "Error loading the state", and with -state check only when
// they write, after saying what they did, leaving the file unchanged;
// workspace show, fmt and modules do not check.
func TestE2EProviderPackagesMatchTerraform(t *testing.T) {
	t.Parallel() // its own directories
	// An unpacked mirror of its own, which init links to: the recorded
	// terraform runs hold links, not the (unrecorded) copies init unpacks
	// from a zip.
	exe := filepath.Join(testProviderMirrorV5(t), "registry.terraform.io", "strata", "stratav5", "0.1.0", hostPlatform, "terraform-provider-stratav5_v0.1.0")
	mirror := t.TempDir()
	pkgRel := filepath.Join("registry.terraform.io", "strata", "stratav5", "0.1.0", hostPlatform)
	if err := os.MkdirAll(filepath.Join(mirror, pkgRel), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mirror, pkgRel, filepath.Base(exe)), readFile(t, exe), 0o755); err != nil {
		t.Fatal(err)
	}
	cli := filepath.Join(mirror, "cli.tfrc")
	writeFile(t, cli, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
	const cfg = "terraform {\n  required_providers {\n    stratav5 = {\n      source  = \"strata/stratav5\"\n      version = \"0.1.0\"\n    }\n  }\n}\n\n" +
		"resource \"stratav5_thing\" \"a\" {\n  name = \"one\"\n}\n\noutput \"o\" {\n  value = \"x\"\n}\n"
	pkgDir := filepath.Join(".terraform", "providers", pkgRel)
	// The product's name is the one difference in wording (differences.md).
	product := regexp.MustCompile(`(?i)terraform|strata`)

	run := func(bin string) string {
		var got strings.Builder
		scenario := func(name string, env []string, prepare func(dir string), commands [][]string) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), cfg)
			env = append([]string{"TF_CLI_CONFIG_FILE=" + cli}, env...)
			step := func(args ...string) result {
				return runWith(t, dir, "1 + 1\n", bin, env, args...)
			}
			for _, args := range [][]string{{"init", "-no-color"}, {"apply", "-auto-approve", "-no-color"}, {"plan", "-out=tfplan", "-no-color"}} {
				if r := step(args...); r.code != 0 {
					t.Fatalf("%s %s: exit %d\n%s%s", bin, strings.Join(args, " "), r.code, r.stdout, r.stderr)
				}
			}
			writeFile(t, filepath.Join(dir, "other.tfstate"), string(readFile(t, filepath.Join(dir, "terraform.tfstate"))))
			if err := os.MkdirAll(filepath.Join(dir, "tests"), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, "tests", "a.tftest.hcl"), "run \"x\" {\n  command = plan\n}\n")
			prepare(dir)
			fmt.Fprintf(&got, "### %s\n", name)
			for _, args := range commands {
				r := step(append(args, "-no-color")...)
				out := r.stdout + "\n--- stderr\n" + r.stderr
				fmt.Fprintf(&got, "## %s: exit %d\n%s\n", strings.Join(args, " "), r.code, strings.ReplaceAll(out, dir, "DIR"))
			}
			// state rm, mv and replace-provider -state wrote nothing.
			fmt.Fprintf(&got, "## other.tfstate holds stratav5_thing.a: %t\n", strings.Contains(string(readFile(t, filepath.Join(dir, "other.tfstate"))), `"name": "a"`))
		}
		// The package is replaced rather than written through init's link
		// to the mirror.
		tamper := func(dir string) {
			pkg := filepath.Join(dir, pkgDir)
			if err := os.RemoveAll(pkg); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(pkg, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(pkg, filepath.Base(exe)), []byte("tamper"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		scenario("package altered, in automation", nil, tamper, [][]string{
			{"providers"}, {"providers", "schema", "-json"},
			{"output"}, {"output", "-json"}, {"output", "-state=other.tfstate"},
			{"show"}, {"show", "-json"}, {"show", "tfplan"}, {"show", "-json", "tfplan"}, {"show", "other.tfstate"}, {"show", "-json", "other.tfstate"},
			{"graph"}, {"graph", "-type=plan"}, {"graph", "-plan=tfplan"},
			{"test"}, {"validate"},
			{"state", "list"}, {"state", "list", "-state=other.tfstate"}, {"state", "show", "stratav5_thing.a"}, {"state", "pull"}, {"state", "push", "other.tfstate"},
			{"state", "rm", "stratav5_thing.a"}, {"state", "mv", "stratav5_thing.a", "stratav5_thing.b"},
			{"state", "replace-provider", "-auto-approve", "strata/stratav5", "strata/stratav5"},
			{"state", "rm", "-state=other.tfstate", "stratav5_thing.a"},
			{"state", "mv", "-state=other.tfstate", "stratav5_thing.a", "stratav5_thing.b"},
			{"state", "mv", "-dry-run", "-state=other.tfstate", "stratav5_thing.a", "stratav5_thing.b"},
			{"state", "replace-provider", "-auto-approve", "-state=other.tfstate", "strata/stratav5", "strata/stratav5"},
			{"workspace", "list"}, {"workspace", "show"}, {"workspace", "new", "w"}, {"workspace", "select", "default"}, {"workspace", "delete", "w"},
			{"taint", "stratav5_thing.a"}, {"untaint", "stratav5_thing.a"}, {"force-unlock", "-force", "123"},
			{"console"}, {"fmt"}, {"modules", "-json"},
		})
		scenario("packages removed", []string{"TF_IN_AUTOMATION="}, func(dir string) { _ = os.RemoveAll(filepath.Join(dir, ".terraform")) }, [][]string{
			{"output"}, {"show", "other.tfstate"}, {"state", "rm", "stratav5_thing.a"}, {"console"}, {"test"},
		})
		scenario("package altered, backend not initialized", nil, func(dir string) {
			tamper(dir)
			writeFile(t, filepath.Join(dir, "backend.tf"), "terraform {\n  backend \"local\" {}\n}\n")
		}, [][]string{
			{"providers"}, {"providers", "schema", "-json"}, {"graph"}, {"output"}, {"workspace", "list"},
		})
		return product.ReplaceAllString(got.String(), "PRODUCT")
	}
	got := run(strataBin)
	for _, want := range []string{
		"## output: exit 1\n\n--- stderr\n\nError: Required plugins are not installed\n",
		"## state rm -state=other.tfstate stratav5_thing.a: exit 1\nRemoved stratav5_thing.a\n\n--- stderr\n\nError: Required plugins are not installed\n",
		"## state rm stratav5_thing.a: exit 1\n\n--- stderr\nError loading the state: Required plugins are not installed: ",
		"## show other.tfstate: exit 1\n\n--- stderr\n\nError: registry.PRODUCT.io/strata/stratav5: there is no package for",
		"## workspace show: exit 0\ndefault\n",
		"## other.tfstate holds stratav5_thing.a: true\n### packages removed",
	} {
		if !strings.Contains(got, product.ReplaceAllString(want, "PRODUCT")) {
			t.Errorf("strata's output lacks %q:\n%s", want, got)
		}
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	if want := run(tf); unwrap(want) != unwrap(got) {
		t.Errorf("differs from terraform (-terraform +strata):\n%s", cmp.Diff(strings.Split(want, "\n"), strings.Split(got, "\n")))
	}
}

// unwrap joins the lines of each paragraph of s, so that text wrapped at
// another word (the product's name is shorter than Terraform's) compares
// equal; blank lines stay.
func unwrap(s string) string {
	var b strings.Builder
	prevBlank := true
	for _, l := range strings.Split(s, "\n") {
		switch {
		case l == "":
			b.WriteString("\n")
		case !prevBlank:
			b.WriteString(" ")
		}
		b.WriteString(l)
		prevBlank = l == ""
	}
	return b.String()
}
