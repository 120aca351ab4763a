package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/strata-dev/strata/internal/provbuild"
)

// workload is a kind of generated configuration and the CLI
// configuration that installs its providers.
type workload struct {
	name      string
	cliConfig string // TF_CLI_CONFIG_FILE for every tool
	// resource renders resource i, given the reference to the previous
	// resource in its chain ("" for the first of a chain).
	resource func(i int, prev string) string
	// output is the attribute the next resource in a chain refers to.
	output string
	typ    string
}

// nullRelease is the upstream null provider release the null workload runs.
var nullRelease = provbuild.Release{Name: "null", Version: "3.3.1"}

func newWorkload(name, repos, cache string) (workload, error) {
	switch name {
	case "data":
		return workload{
			name: name, cliConfig: os.DevNull, typ: "terraform_data", output: "output",
			resource: func(i int, prev string) string {
				if prev == "" {
					prev = `"start"`
				}
				return fmt.Sprintf("resource \"terraform_data\" \"r%d\" {\n  input = %s\n}\n", i, prev)
			},
		}, nil
	case "null":
		return nullWorkload(repos, cache)
	}
	return workload{}, fmt.Errorf("-workloads: there is no workload %q; the workloads are data and null", name)
}

// nullWorkload builds hashicorp/null from its repository, or the
// repository's own protocol 5 test provider when the repository is not
// at hand, into a filesystem mirror.
func nullWorkload(repos, cache string) (workload, error) {
	logf := func(format string, args ...any) { fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...) }
	mirror := filepath.Join(cache, "bench-mirror")
	if exe, err := provbuild.Build(cache, repos, nullRelease, logf); err == nil {
		cfg, err := provbuild.WriteMirror(mirror, map[provbuild.Release]string{nullRelease: exe})
		return workload{
			name: "null", cliConfig: cfg, typ: "null_resource", output: "id",
			resource: func(i int, prev string) string {
				if prev == "" {
					prev = `"start"`
				}
				s := fmt.Sprintf("resource \"null_resource\" \"r%d\" {\n  triggers = { prev = %s }\n}\n", i, prev)
				if i == 0 {
					// Spelled out: OpenTofu would otherwise look for
					// hashicorp/null on its own registry, which the
					// mirror does not hold.
					s = "terraform {\n  required_providers {\n    null = { source = \"registry.terraform.io/hashicorp/null\" }\n  }\n}\n" + s
				}
				return s
			},
		}, err
	} else {
		logf("the null workload runs the repository's protocol 5 test provider instead of hashicorp/null: %v", err)
	}
	stand := provbuild.Release{Name: "stratav5", Version: "0.1.0", Namespace: "strata"}
	exe := filepath.Join(cache, "providers", stand.Name, stand.Version, stand.Exe())
	cmd := exec.Command("go", "build", "-o", exe, "./stratav5")
	cmd.Dir = filepath.Join("internal", "providers", "plugin", "testdata", "providers")
	if out, err := cmd.CombinedOutput(); err != nil {
		return workload{}, fmt.Errorf("building the protocol 5 test provider (run bench from the repository's root): %v\n%s", err, out)
	}
	cfg, err := provbuild.WriteMirror(mirror, map[provbuild.Release]string{stand: exe})
	header := "terraform {\n  required_providers {\n    stratav5 = { source = \"strata/stratav5\" }\n  }\n}\n"
	return workload{
		name: "null", cliConfig: cfg, typ: "stratav5_thing", output: "id",
		resource: func(i int, prev string) string {
			if prev == "" {
				prev = `"start"`
			}
			s := fmt.Sprintf("resource \"stratav5_thing\" \"r%d\" {\n  name = %s\n}\n", i, prev)
			if i == 0 {
				s = header + s
			}
			return s
		},
	}, err
}

// config renders n resources in chains of length chain (0: one chain).
func (w workload) config(n, chain int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		prev := ""
		if i > 0 && (chain == 0 || i%chain != 0) {
			prev = fmt.Sprintf("%s.r%d.%s", w.typ, i-1, w.output)
		}
		b.WriteString(w.resource(i, prev))
	}
	return b.String()
}
