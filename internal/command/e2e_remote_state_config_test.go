package command

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestE2ERemoteStateBadConfigMatchesTerraform: a terraform_remote_state
// whose config its backend refuses fails as Terraform's does: an argument
// the backend does not have, a value of the wrong type or a required
// argument missing is "Invalid backend configuration" on the config
// argument; what the s3 backend checks in the values is its own
// diagnostic on the data block, both found by validation, before any
// data source is read; an http address the backend cannot use is its
// bare error, when the data source is read. Exit code, stdout and stderr
// are compared with terraform's. Each configuration has one problem:
// Terraform reports one of several in map order.
func TestE2ERemoteStateBadConfigMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	tests := map[string]struct{ backend, config string }{
		"s3 no bucket":         {"s3", `{ key = "k", region = "us-east-1" }`},
		"s3 no key":            {"s3", `{ bucket = "b", region = "us-east-1" }`},
		"s3 no region":         {"s3", `{ bucket = "b", key = "k" }`},
		"s3 unknown argument":  {"s3", `{ bucket = "b", key = "k", region = "us-east-1", foo = 1 }`},
		"s3 key with a slash":  {"s3", `{ bucket = "b", key = "/k", region = "us-east-1" }`},
		"s3 empty bucket":      {"s3", `{ bucket = "", key = "k", region = "us-east-1" }`},
		"s3 blank bucket":      {"s3", `{ bucket = "  ", key = "k", region = "us-east-1" }`},
		"s3 nested type":       {"s3", `{ bucket = "b", key = "k", region = "us-east-1", endpoints = "x" }`},
		"s3 wrong type":        {"s3", `{ bucket = "b", key = "k", max_retries = "x" }`},
		"pg unknown argument":  {"pg", `{ conn_str = "sslmode=disable", foo = 1 }`},
		"pg wrong type":        {"pg", `{ conn_str = "sslmode=disable", skip_schema_creation = "maybe" }`},
		"pg not an object":     {"pg", `"x"`},
		"http no address":      {"http", `{}`},
		"http not http":        {"http", `{ address = "ftp://x" }`},
		"http unknown":         {"http", `{ address = "http://state.example.invalid/x", foo = 1 }`},
		"http null unknown":    {"http", `{ address = "http://state.example.invalid/x", foo = null }`},
		"http wrong type":      {"http", `{ address = "http://state.example.invalid/x", retry_max = "abc" }`},
		"http bad lock url":    {"http", `{ address = "http://state.example.invalid/x", lock_address = "::bad" }`},
		"local empty path":     {"local", `{ path = "" }`},
		"config from variable": {"s3", `var.c`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			run := func(bin string) result {
				dir := t.TempDir()
				writeFile(t, filepath.Join(dir, "main.tf"), "variable \"c\" {\n  default = { bucket = \"b\" }\n}\n\ndata \"terraform_remote_state\" \"x\" {\n  backend = \""+tc.backend+"\"\n  config  = "+tc.config+"\n}\n")
				if r := runWith(t, dir, "", bin, nil, "init", "-no-color"); r.code != 0 {
					t.Fatalf("%s init: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
				}
				return runWith(t, dir, "", bin, nil, "plan", "-no-color")
			}
			got, want := run(strataBin), run(tf)
			norm := func(s string) string { return strings.ReplaceAll(s, "Terraform", "strata") }
			if got.code != want.code || got.stdout != norm(want.stdout) || got.stderr != norm(want.stderr) {
				t.Errorf("differs from terraform:\nterraform: exit %d\n%s\n--- stderr\n%s\nstrata: exit %d\n%s\n--- stderr\n%s", want.code, want.stdout, want.stderr, got.code, got.stdout, got.stderr)
			}
		})
	}
}
